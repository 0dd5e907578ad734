import { Link } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import type { Route } from "./+types/book-chapter";
import { HiddenNotice } from "../components/hidden-notice.tsx";
import { getAppContext, tagPage } from "../lib/context.server.ts";
import { subjectPageTags } from "../../server/lib/cache-tags.ts";
import { circleIdOf, tagCirclePage } from "../lib/circle-pages.server.ts";
import { orNotFound, pathIdOf, redirectToOwnCircle } from "../lib/book-pages.server.ts";
import { metaDescription, readingMeta } from "../lib/book-meta.ts";
import { formatDate, localeFromPath, localizePath, type Locale } from "../../common/locale.ts";
import { pageMeta } from "../lib/meta.ts";
import { getBook } from "../../features/books/service.ts";
import { getChapter } from "../../features/books/chapters.ts";
import { withActionBar } from "../lib/interaction-pages.server.ts";
import { commentPageAction, commentsSectionOf, subjectOfParam } from "../lib/comment-pages.server.ts";
import { CommentSection, commentAnswerOf } from "../components/comment-section.tsx";
import { ActionBar } from "../components/action-bar.tsx";
import { getCircleRow } from "../../features/circles/service.ts";
import { localizedTexts } from "../../features/circles/presenter.ts";
import { contentStylesheets, ReadingTime, RenderedContent, TableOfContents } from "../components/rendered-content.tsx";
import { BookStateBadge, bookStylesheets, ViewCounter } from "../components/book-parts.tsx";
import { getI18n } from "../../common/i18n.ts";
import "../../features/books/catalog.ts";
import { Breadcrumb } from "../components/breadcrumb.tsx";

export const links = () => [...contentStylesheets, ...bookStylesheets];
/** The signed in get a private copy with the comment forms' CSRF cookie. */
export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

export const meta: Route.MetaFunction = ({ location, loaderData }) => {
  if (!loaderData) return pageMeta(location, "books:read.not_found");
  const { book, chapter, origin } = loaderData;
  const locale = localeFromPath(location.pathname);
  const t = getI18n(locale).t;
  const bookPath = `/circles/${book.circleId}/books/${book.id}`;
  const path = `${bookPath}/chapters/${chapter.id}`;
  const title = `${t("books:read.chapter_heading", { number: chapter.number, title: chapter.title })} - ${book.name}`;
  return readingMeta(
    location,
    title,
    metaDescription(book.description),
    { origin, path, locale },
    {
      "@type": "Chapter",
      name: chapter.title,
      position: chapter.number,
      url: origin + localizePath(path, locale),
      dateCreated: chapter.createdAt,
      dateModified: chapter.updatedAt,
      author: { "@type": "Person", name: book.author.nickname },
      isPartOf: { "@type": "Book", name: book.name, url: origin + localizePath(bookPath, locale) },
    },
  );
};

/** A chapter: its text, previous and next, and the book's chapter list. */
export async function loader({ context, params, request }: Route.LoaderArgs) {
  const app = getAppContext(context);
  const circleId = circleIdOf(request, params.circleId);
  const bookId = pathIdOf(request, params.bookId);
  const chapterId = pathIdOf(request, params.chapterId);
  const book = await orNotFound(request, () => getBook(app.db, app.viewer, bookId));
  redirectToOwnCircle(request, circleId, book.circleId);
  const page = await orNotFound(request, () => getChapter(app.db, app.viewer, bookId, chapterId));
  tagPage(app, ...subjectPageTags("book", book.id));
  await tagCirclePage(app, book.circleId);
  const circle = await getCircleRow(app.db, book.circleId);
  const { chapters: _chapters, ...summary } = book;
  const comments = await commentsSectionOf(app, request, { type: "chapter", id: page.chapter.id });
  const value = {
    book: summary,
    ...page,
    circle: { id: book.circleId, name: localizedTexts(circle!, app.locale).name },
    origin: new URL(request.url).origin,
    comments,
  };
  return withActionBar(app, value, { type: "chapter", id: page.chapter.id, authorId: book.author.id });
}

/** The chapter's comments (`comment`, `reply`, `edit-comment`, `delete-comment`), as plain form posts on the chapter of the URL. */
export async function action(args: Route.ActionArgs) {
  return commentPageAction(args, subjectOfParam("chapter", "chapterId"));
}

export default function BookChapter({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("books");
  const locale = i18n.language as Locale;
  const { book, chapter, chapters, previous, next, circle } = loaderData;
  const bookPath = localizePath(`/circles/${circle.id}/books/${book.id}`, locale);
  const chapterLink = (id: number) => `${bookPath}/chapters/${id}`;
  const pager = (
    <nav className="chapter-pager" aria-label={t("read.contents")}>
      {previous ? (
        <Link to={chapterLink(previous.id)} rel="prev" className="button">
          ← {t("read.previous")}
        </Link>
      ) : (
        <span />
      )}
      <Link to={bookPath} className="button">
        {t("read.back_to_book")}
      </Link>
      {next ? (
        <Link to={chapterLink(next.id)} rel="next" className="button">
          {t("read.next")} →
        </Link>
      ) : (
        <span />
      )}
    </nav>
  );
  return (
    <>
      <Breadcrumb
        label={t("common:circles.breadcrumb")}
        trail={[
          { to: localizePath(`/circles/${circle.id}`, locale), label: circle.name },
          { to: bookPath, label: book.name },
        ]}
        current={t("read.chapter_number", { number: chapter.number })}
      />
      <div className="chapter-layout">
        <article className="panel chapter-page" aria-labelledby="chapter-title">
          <HiddenNotice state={loaderData.moderation} />
          <p className="muted">
            <Link to={bookPath}>{book.name}</Link> · {t("read.by", { name: book.author.nickname })} · <BookStateBadge state={book.state} />
          </p>
          <h1 id="chapter-title" className="page-title">
            {t("read.chapter_heading", { number: chapter.number, title: chapter.title })}
          </h1>
          <p className="muted">
            <time dateTime={chapter.updatedAt}>{formatDate(chapter.updatedAt, locale, { dateStyle: "medium", timeStyle: "short" })}</time> ·{" "}
            {t("read.characters", { count: chapter.textLength })} · <ReadingTime minutes={chapter.readingMinutes} />
          </p>
          {pager}
          <TableOfContents items={chapter.toc} />
          <RenderedContent html={chapter.html} />
          <ActionBar
            subjectType="chapter"
            subjectId={chapter.id}
            summary={loaderData.interactions}
            csrfToken={loaderData.csrfToken}
            title={chapter.title}
          />
          {pager}
          <ViewCounter bookId={book.id} />
        </article>
        <aside className="panel chapter-sidebar" aria-labelledby="chapter-list-title">
          <h2 id="chapter-list-title">{t("read.contents")}</h2>
          <ol className="book-chapter-list">
            {chapters.map((item) => (
              <li key={item.id} value={item.number}>
                <Link to={chapterLink(item.id)} aria-current={item.id === chapter.id ? "page" : undefined}>
                  <span className="chapter-number">{t("read.chapter_number", { number: item.number })}</span> {item.title}
                </Link>
              </li>
            ))}
          </ol>
        </aside>
      </div>
      <CommentSection
        comments={loaderData.comments}
        csrfToken={loaderData.csrfToken}
        signedIn={loaderData.csrfToken !== null}
        failure={commentAnswerOf(actionData).failure}
        actionData={commentAnswerOf(actionData).asked}
      />
    </>
  );
}
