import { Link } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import type { Route } from "./+types/book";
import { HiddenNotice } from "../components/hidden-notice.tsx";
import { getAppContext, tagPage } from "../lib/context.server.ts";
import { circleIdOf, tagCirclePage } from "../lib/circle-pages.server.ts";
import { orNotFound, pathIdOf, redirectToOwnCircle } from "../lib/book-pages.server.ts";
import { withActionBar } from "../lib/interaction-pages.server.ts";
import { commentPageAction, commentsSectionOf, subjectOfParam } from "../lib/comment-pages.server.ts";
import { CommentSection, commentAnswerOf } from "../components/comment-section.tsx";
import { ActionBar } from "../components/action-bar.tsx";
import { metaDescription, readingMeta } from "../lib/book-meta.ts";
import { formatDate, localeFromPath, localizePath, type Locale } from "../../common/locale.ts";
import { pageMeta } from "../lib/meta.ts";
import { getBook } from "../../features/books/service.ts";
import { getCircleRow } from "../../features/circles/service.ts";
import { localizedTexts } from "../../features/circles/presenter.ts";
import { BookCover, BookStateBadge, bookStylesheets, ViewCounter } from "../components/book-parts.tsx";

export const links = () => [...bookStylesheets];
/** The signed in get a private copy with the comment forms' CSRF cookie. */
export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;
import "../../features/books/catalog.ts";
import { Breadcrumb } from "../components/breadcrumb.tsx";
import { subjectPageTags } from "../../server/lib/cache-tags.ts";

export const meta: Route.MetaFunction = ({ location, loaderData }) => {
  if (!loaderData) return pageMeta(location, "books:read.not_found");
  const { book, origin } = loaderData;
  const locale = localeFromPath(location.pathname);
  const path = `/circles/${book.circleId}/books/${book.id}`;
  return readingMeta(
    location,
    book.name,
    metaDescription(book.description),
    { origin, path, locale },
    {
      "@type": "Book",
      name: book.name,
      description: book.description || undefined,
      author: { "@type": "Person", name: book.author.nickname, url: origin + localizePath(`/profile/${book.author.username}`, locale) },
      url: origin + localizePath(path, locale),
      image: book.cover ? origin + book.cover : undefined,
      dateCreated: book.createdAt,
      dateModified: book.updatedAt,
      creativeWorkStatus: book.state === "completed" ? "Published" : "Incomplete",
      hasPart: book.chapters.map((chapter) => ({
        "@type": "Chapter",
        name: chapter.title,
        position: chapter.number,
        url: origin + localizePath(`${path}/chapters/${chapter.id}`, locale),
      })),
    },
  );
};

/** A book's page: cover, description, author, state, views, last updated, latest chapter and the numbered chapters. */
export async function loader({ context, params, request }: Route.LoaderArgs) {
  const app = getAppContext(context);
  const circleId = circleIdOf(request, params.circleId);
  const bookId = pathIdOf(request, params.bookId);
  const book = await orNotFound(request, () => getBook(app.db, app.viewer, bookId));
  redirectToOwnCircle(request, circleId, book.circleId);
  tagPage(app, ...subjectPageTags("book", book.id));
  await tagCirclePage(app, book.circleId);
  const circle = await getCircleRow(app.db, book.circleId);
  const comments = await commentsSectionOf(app, request, { type: "book", id: book.id });
  const page = {
    book,
    circle: { id: book.circleId, name: localizedTexts(circle!, app.locale).name },
    origin: new URL(request.url).origin,
    comments,
  };
  return withActionBar(app, page, { type: "book", id: book.id, authorId: book.author.id });
}

/** The book's comments (`comment`, `reply`, `edit-comment`, `delete-comment`), as plain form posts on the book of the URL. */
export async function action(args: Route.ActionArgs) {
  return commentPageAction(args, subjectOfParam("book", "bookId"));
}

export default function Book({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("books");
  const locale = i18n.language as Locale;
  const { book, circle } = loaderData;
  const path = (suffix = "") => localizePath(`/circles/${circle.id}/books/${book.id}${suffix}`, locale);
  const first = book.chapters[0];
  return (
    <>
      <Breadcrumb
        label={t("common:circles.breadcrumb")}
        trail={[
          { to: localizePath(`/circles/${circle.id}`, locale), label: circle.name },
          { to: `${localizePath(`/circles/${circle.id}`, locale)}?tab=books`, label: t("books:read.circle_books") },
        ]}
        current={book.name}
      />
      <HiddenNotice state={loaderData.moderation} />
      <article className="panel book-page" aria-labelledby="book-title">
        <div className="book-header">
          <BookCover cover={book.cover} name={book.name} circleId={circle.id} size="large" />
          <div className="book-facts">
            <h1 id="book-title" className="page-title">
              {book.name}
            </h1>
            <p>
              <Link to={localizePath(`/profile/${book.author.username}`, locale)}>{t("read.by", { name: book.author.nickname })}</Link>
            </p>
            <p className="book-meta-line">
              <BookStateBadge state={book.state} /> <span>{t("read.views", { count: book.views })}</span> ·{" "}
              <span>{t("read.chapter_count", { count: book.chapters.length })}</span>
            </p>
            <p className="muted">
              <time dateTime={book.updatedAt}>
                {t("read.updated", { date: formatDate(book.updatedAt, locale, { dateStyle: "medium", timeStyle: "short" }) })}
              </time>
            </p>
            {book.latestChapter ? (
              <p>
                {t("read.latest")}:{" "}
                <Link to={path(`/chapters/${book.latestChapter.id}`)} data-testid="latest-chapter">
                  {t("read.chapter_heading", { number: book.latestChapter.number, title: book.latestChapter.title })}
                </Link>
              </p>
            ) : null}
            {book.categories.length > 0 ? (
              <p className="muted">
                {t("read.categories")}: {book.categories.map((category) => category.name).join(" · ")}
              </p>
            ) : null}
            <p className="book-actions">
              {first ? (
                <Link className="button button-primary" to={path(`/chapters/${first.id}`)}>
                  {t("read.start_reading")}
                </Link>
              ) : null}
              {book.can.edit ? (
                <Link className="button" to={localizePath(`/circles/${circle.id}/write/book/${book.id}`, locale)}>
                  {t("read.edit")}
                </Link>
              ) : null}
            </p>
          </div>
        </div>
        {book.description ? <p className="book-description">{book.description}</p> : null}
        <ActionBar
          subjectType="book"
          subjectId={book.id}
          summary={loaderData.interactions}
          csrfToken={loaderData.csrfToken}
          title={book.name}
        />
        <section aria-labelledby="book-contents-title">
          <h2 id="book-contents-title">{t("read.contents")}</h2>
          {book.chapters.length === 0 ? (
            <p className="muted">{t("read.none_yet")}</p>
          ) : (
            <ol className="book-chapter-list">
              {book.chapters.map((chapter) => (
                <li key={chapter.id} value={chapter.number}>
                  <Link to={path(`/chapters/${chapter.id}`)}>
                    <span className="chapter-number">{t("read.chapter_number", { number: chapter.number })}</span> {chapter.title}
                  </Link>
                </li>
              ))}
            </ol>
          )}
        </section>
        <ViewCounter bookId={book.id} />
      </article>
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
