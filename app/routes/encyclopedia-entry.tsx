import { Link } from "react-router";
import { useTranslation } from "react-i18next";
import type { Route } from "./+types/encyclopedia-entry";
import { HiddenNotice } from "../components/hidden-notice.tsx";
import { getAppContext } from "../lib/context.server.ts";
import { commentPageAction, subjectOfParam } from "../lib/comment-pages.server.ts";
import { CommentSection, commentAnswerOf } from "../components/comment-section.tsx";
import { entryPage } from "../lib/entry-pages.server.ts";
import { readingMeta } from "../lib/book-meta.ts";
import { pageMeta } from "../lib/meta.ts";
import { formatDate, localeFromPath, localizePath, type Locale } from "../../common/locale.ts";
import { bracketed, entryPath } from "../../features/encyclopedia/paths.ts";
import { Breadcrumb } from "../components/breadcrumb.tsx";
import { contentStylesheets, RenderedContent } from "../components/rendered-content.tsx";
import "../lib/encyclopedia-catalog.ts";

export const links: Route.LinksFunction = () => [...contentStylesheets];

export const meta: Route.MetaFunction = ({ location, loaderData }) => {
  if (!loaderData) return pageMeta(location, "encyclopedia:read.not_found");
  const { entry, origin, summary: description } = loaderData;
  const locale = localeFromPath(location.pathname);
  const title = entry.disambiguation ? entry.name + bracketed(entry.disambiguation, entry.language) : entry.name;
  return readingMeta(
    location,
    title,
    description,
    { origin, path: entryPath(entry), locale },
    {
      "@type": "DefinedTerm",
      name: entry.name,
      alternateName: entry.aliases.length > 0 ? entry.aliases : undefined,
      description,
      inLanguage: entry.language,
      url: origin + localizePath(entryPath(entry), locale),
      dateCreated: entry.createdAt,
      dateModified: entry.updatedAt,
    },
  );
};

/** /circles/{cid}/encyclopedia/{entry_id}: an entry as a reader sees it (complete without JavaScript). */
export async function loader({ context, params, request }: Route.LoaderArgs) {
  return entryPage(getAppContext(context), request, params);
}

/** The signed in get a private copy with the comment forms' CSRF cookie. */
export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

/** The entry's comments (`comment`, `reply`, `edit-comment`, `delete-comment`), as plain form posts on the entry of the URL. */
export async function action(args: Route.ActionArgs) {
  return commentPageAction(args, subjectOfParam("entry", "entryId"));
}

const dateTime: Intl.DateTimeFormatOptions = { dateStyle: "medium", timeStyle: "short" };

export default function EncyclopediaEntry({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("encyclopedia");
  const locale = i18n.language as Locale;
  const { entry, circle } = loaderData;
  const circlePath = localizePath(`/circles/${circle.id}`, locale);
  return (
    <article className="entry-page" lang={entry.language} data-testid="entry">
      <Breadcrumb
        label={t("read.breadcrumb")}
        trail={[
          { to: circlePath, label: circle.name },
          { to: `${circlePath}?tab=encyclopedia`, label: t("read.encyclopedia") },
        ]}
        current={entry.name}
      />
      <HiddenNotice state={loaderData.moderation} />
      <header className="panel writing-header">
        <h1 className="page-title writing-title" data-testid="entry-name">
          {entry.name}
          {entry.disambiguation ? (
            <span className="entry-disambiguation muted">{bracketed(entry.disambiguation, entry.language)}</span>
          ) : null}
        </h1>
        {entry.aliases.length > 0 ? (
          <p className="entry-aliases">
            <span className="muted">{t("read.aliases")}</span>{" "}
            {entry.aliases.map((alias, index) => (
              <span key={alias}>
                {index > 0 ? " · " : ""}
                <span className="role-badge">{alias}</span>
              </span>
            ))}
          </p>
        ) : null}
        {entry.parent ? (
          <p>
            <span className="muted">{t("read.parent")}</span>{" "}
            <Link to={localizePath(entryPath(entry.parent), locale)} data-testid="entry-parent">
              {entry.parent.name}
            </Link>
            {entry.parent.disambiguation ? (
              <span className="muted">{bracketed(entry.parent.disambiguation, entry.parent.language)}</span>
            ) : null}
          </p>
        ) : null}
        <p className="muted writing-facts">
          {entry.creator ? (
            <>
              {t("read.created_by")}{" "}
              <Link to={localizePath(`/profile/${entry.creator.username}`, locale)} data-testid="entry-creator">
                {entry.creator.nickname}
              </Link>{" "}
              ·{" "}
            </>
          ) : null}
          <time dateTime={entry.createdAt}>{t("read.created", { date: formatDate(entry.createdAt, locale, dateTime) })}</time>
        </p>
        <p className="muted writing-facts">
          <span>{t("read.views", { count: entry.views })}</span> · <span>{t("read.edits", { count: entry.editCount })}</span> ·{" "}
          <span>{t("read.cites", { count: entry.citeCount })}</span>
        </p>
      </header>
      <div className="panel writing-content">
        {entry.descriptionHtml ? (
          <RenderedContent html={entry.descriptionHtml} lang={entry.language} />
        ) : (
          <p className="muted">{t("read.no_description")}</p>
        )}
      </div>
      <img className="view-beacon" src={`/api/encyclopedia/entries/${entry.id}/view.gif`} alt="" width={1} height={1} />
      <CommentSection
        comments={loaderData.comments}
        csrfToken={loaderData.csrfToken}
        signedIn={loaderData.csrfToken !== null}
        failure={commentAnswerOf(actionData).failure}
        actionData={commentAnswerOf(actionData).asked}
      />
    </article>
  );
}
