import { Form, Link, isRouteErrorResponse, redirect, useLocation, useRouteError } from "react-router";
import { ErrorScreen } from "../components/error-screen.tsx";
import { ErrorBoundary as SiteErrorBoundary } from "./site-layout.tsx";
import { useTranslation } from "../lib/i18n.tsx";
import type { Route } from "./+types/encyclopedia-entry";
import { HiddenNotice } from "../components/hidden-notice.tsx";
import { assertFormCsrf, getAppContext, readForm } from "../lib/context.server.ts";
import { commentIntentsFor, subjectOfParam } from "../lib/comment-pages.server.ts";
import { CommentSection, commentAnswerOf } from "../components/comment-section.tsx";
import { actedEntryId, entryPage, type MissingVersion } from "../lib/entry-pages.server.ts";
import { readingMeta } from "../lib/book-meta.ts";
import { pageMeta } from "../lib/meta.ts";
import { formatDate, localeFromPath, localizePath, type Locale } from "../../common/locale.ts";
import { bracketed, entryPath } from "../../features/encyclopedia/paths.ts";
import { Breadcrumb } from "../components/breadcrumb.tsx";
import { contentStylesheets, RenderedContent } from "../components/rendered-content.tsx";
import { ActionBar } from "../components/action-bar.tsx";
import { ConfirmButton } from "../components/confirm-button.tsx";
import { CiteThis } from "../components/cite-this.tsx";
import { deleteEntryOperation, protectEntryOperation } from "../../features/encyclopedia/operations.ts";
import { dispatchIntent, failuresOnErrorScreen, formAction, requireSignedIn, type FormPost } from "../../server/lib/operation.ts";
import "../lib/encyclopedia-catalog.ts";
import { ViewBeacon } from "../components/view-beacon.tsx";
import { AdSlot } from "../components/ad-slot.tsx";
import encyclopediaStyles from "../styles/encyclopedia.css?url";

export const links: Route.LinksFunction = () => [...contentStylesheets, { rel: "stylesheet", href: encyclopediaStyles }];

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

export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

/** The entry's comments (`comment`, `reply`, `edit-comment`, `delete-comment`), on the entry of the URL. */
const entryComments = commentIntentsFor(subjectOfParam("entry", "entryId"));

/** Comments, and deleting the entry (moderators; asked first: the answer carries `confirmed=1`), protecting and unprotecting it. */
export async function action({ context, params: asked, request }: Route.ActionArgs) {
  const app = getAppContext(context);
  requireSignedIn(app.viewer);
  const form = await readForm(request);
  assertFormCsrf(app, form);
  // A language version's page (`…/{entry_id}/{lang}`) acts on that version.
  const params = { ...asked, entryId: await actedEntryId(app, request, asked) };
  const protection = (value: boolean) =>
    formAction(protectEntryOperation, {
      params: ({ params }) => ({ id: params.entryId }),
      body: () => ({ protected: value }),
      done: (_answer, { app }) => {
        throw redirect(localizePath(`/circles/${params.circleId}/encyclopedia/${params.entryId}`, app.locale));
      },
      ...failuresOnErrorScreen,
    });
  return dispatchIntent(
    { app, request, form, params },
    {
      ...entryComments,
      delete: async (post: FormPost) => {
        if (post.form.get("confirmed") !== "1") return { confirmDelete: true };
        return formAction(deleteEntryOperation, {
          params: ({ params }) => ({ id: params.entryId }),
          done: (_answer, { app }, { result }) => {
            throw redirect(localizePath(`/circles/${result.circleId}/encyclopedia?deleted=1`, app.locale));
          },
          ...failuresOnErrorScreen,
        })(post);
      },
      protect: protection(true),
      unprotect: protection(false),
    },
  );
}

const dateTime: Intl.DateTimeFormatOptions = { dateStyle: "medium", timeStyle: "short" };

export default function EncyclopediaEntry({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("encyclopedia");
  const locale = i18n.language as Locale;
  const { entry, circle, permissions, oldRevision, csrfToken } = loaderData;
  const circlePath = localizePath(`/circles/${circle.id}`, locale);
  const here = localizePath(entryPath(entry), locale);
  const ownPath = localizePath(`/circles/${circle.id}/encyclopedia/${entry.id}`, locale);
  const languageName = (language: string) => t(`languages.${language}`);
  const photos = oldRevision ? oldRevision.photos : entry.photos;
  const asked = Boolean((actionData as { confirmDelete?: boolean } | undefined)?.confirmDelete);
  return (
    <article className="entry-page" lang={entry.language} data-testid="entry">
      <Breadcrumb
        label={t("read.breadcrumb")}
        trail={[
          { to: circlePath, label: circle.name },
          { to: `${circlePath}/encyclopedia`, label: t("read.encyclopedia") },
          ...loaderData.ancestors.map((ancestor) => ({ to: localizePath(entryPath(ancestor), locale), label: ancestor.name })),
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
        <nav className="entry-actions" aria-label={t("read.actions")}>
          {permissions.edit ? (
            <Link className="button" to={`${ownPath}/edit`} data-testid="entry-edit">
              {t("read.edit")}
            </Link>
          ) : null}
          <Link className="button" to={`${ownPath}/history`} data-testid="entry-history">
            {t("read.history")}
          </Link>
          <CiteThis cited={loaderData.cited} />
          {entry.protected ? (
            <span className="role-badge" data-testid="entry-protected">
              {t("read.protected")}
            </span>
          ) : null}
          {permissions.protect && csrfToken ? (
            <Form method="post" action={here} className="inline-form">
              <input type="hidden" name="csrftoken" value={csrfToken} />
              <button
                type="submit"
                name="intent"
                value={entry.protected ? "unprotect" : "protect"}
                className="button"
                data-testid="entry-protect"
              >
                {entry.protected ? t("read.unprotect") : t("read.protect")}
              </button>
            </Form>
          ) : null}
          {permissions.delete && csrfToken ? (
            <ConfirmButton
              id="entry-delete"
              action={here}
              encType="application/x-www-form-urlencoded"
              csrfToken={csrfToken}
              intent="delete"
              label={t("read.delete")}
              question={t("read.delete_question", { name: entry.name })}
              confirmLabel={t("read.delete_confirm")}
              cancelLabel={t("read.delete_cancel")}
              danger
              asked={asked}
              cancelTo={here}
            />
          ) : null}
        </nav>
      </header>
      {loaderData.versions.length > 1 || (permissions.addVersion && loaderData.missingLanguages.length > 0) ? (
        <p className="panel entry-versions" data-testid="entry-versions">
          <span className="muted">{t("read.versions")}</span>{" "}
          {loaderData.versions
            .filter((version) => version.id !== entry.id)
            .map((version) => (
              <span key={version.id}>
                <Link to={localizePath(version.path, locale)} hrefLang={version.language} lang={version.language}>
                  {version.name}
                </Link>{" "}
                <span className="muted">{t("read.version_language", { language: languageName(version.language) })}</span>{" "}
              </span>
            ))}
          {permissions.addVersion
            ? loaderData.missingLanguages.map((language) => (
                <Link
                  key={language}
                  className="button"
                  to={localizePath(`/circles/${circle.id}/encyclopedia/${loaderData.groupId}/edit?language=${language}`, locale)}
                  data-testid={`entry-add-version-${language}`}
                >
                  {t("read.add_version", { language: languageName(language) })}
                </Link>
              ))
            : null}
        </p>
      ) : null}
      {loaderData.changedVersions.map((changed) => (
        <p className="notice" role="status" key={changed.language} data-testid="entry-version-changed">
          {t("read.version_changed", { language: languageName(changed.language), count: changed.edits })}{" "}
          <Link to={localizePath(changed.diff, locale)}>{t("read.version_changed_diff")}</Link>
        </p>
      ))}
      {loaderData.senses.length > 0 ? (
        <p className="notice" data-testid="entry-other-senses">
          {t("senses.other")}{" "}
          {loaderData.senses.map((sense, index) => (
            <span key={sense.id}>
              {index > 0 ? " · " : ""}
              <Link to={localizePath(entryPath(sense), locale)}>
                {sense.name}
                {sense.disambiguation ? bracketed(sense.disambiguation, sense.language) : ""}
              </Link>
            </span>
          ))}
        </p>
      ) : null}
      {oldRevision ? (
        <p className="notice" role="status" data-testid="old-revision">
          {t("read.old_revision", { number: oldRevision.number, date: formatDate(oldRevision.createdAt, locale, dateTime) })}{" "}
          <Link to={here}>{t("read.current_revision")}</Link>
        </p>
      ) : null}
      <div className="panel writing-content">
        {photos.length > 0 ? (
          <figure className="entry-infobox" data-testid="entry-infobox">
            <a href={`/attach/${photos[0]!.file_id}`}>
              <img src={`/attach/${photos[0]!.file_id}`} alt={photos[0]!.caption || entry.name} loading="lazy" />
            </a>
            {photos[0]!.caption ? <figcaption>{photos[0]!.caption}</figcaption> : null}
          </figure>
        ) : null}
        {oldRevision ? (
          <RenderedContent html={oldRevision.html} lang={entry.language} />
        ) : entry.descriptionHtml ? (
          <RenderedContent html={entry.descriptionHtml} lang={entry.language} />
        ) : (
          <p className="muted">{t("read.no_description")}</p>
        )}
      </div>
      {photos.length > 1 ? (
        <section className="panel" aria-labelledby="entry-gallery-title" data-testid="entry-gallery">
          <h2 id="entry-gallery-title">{t("read.gallery")}</h2>
          <div className="entry-gallery">
            {photos.slice(1).map((photo) => (
              <figure key={photo.file_id}>
                <a href={`/attach/${photo.file_id}`}>
                  <img src={`/attach/${photo.file_id}`} alt={photo.caption || entry.name} loading="lazy" />
                </a>
                {photo.caption ? <figcaption>{photo.caption}</figcaption> : null}
              </figure>
            ))}
          </div>
        </section>
      ) : null}
      <ActionBar subjectType="entry" subjectId={entry.id} summary={loaderData.interactions} csrfToken={csrfToken} title={entry.name} />
      <AdSlot placement="entry" circleId={circle.id} subject={{ type: "entry", id: entry.id }} />
      {loaderData.children.length > 0 ? (
        <section className="panel" aria-labelledby="entry-children-title" data-testid="entry-children">
          <h2 id="entry-children-title">{t("read.children")}</h2>
          <ul>
            {loaderData.children.map((child) => (
              <li key={child.id}>
                <Link to={localizePath(entryPath(child), locale)}>{child.name}</Link>
                {child.disambiguation ? <span className="muted">{bracketed(child.disambiguation, child.language)}</span> : null}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {loaderData.contributors.length > 0 ? (
        <section className="panel" aria-labelledby="entry-contributors-title" data-testid="entry-contributors">
          <h2 id="entry-contributors-title">{t("read.contributors")}</h2>
          <p>
            {loaderData.contributors.map((contributor, index) => (
              <span key={contributor.id}>
                {index > 0 ? " · " : ""}
                <Link to={localizePath(`/profile/${contributor.username}`, locale)}>{contributor.nickname}</Link>{" "}
                <span className="muted">{t("read.contributor_edits", { count: contributor.edits })}</span>
              </span>
            ))}
          </p>
        </section>
      ) : null}
      <ViewBeacon type="entry" id={entry.id} />
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

/** A missing language version is the 404 screen with a link to write it; anything else the site's error screen. */
export function ErrorBoundary() {
  const error = useRouteError();
  const location = useLocation();
  const { t } = useTranslation("encyclopedia");
  const missing = isRouteErrorResponse(error) ? (error.data as Partial<MissingVersion> | null)?.missingVersion : undefined;
  if (!missing) return <SiteErrorBoundary />;
  const language = t(`languages.${missing.language}`);
  return (
    <ErrorScreen status={404} path={location.pathname}>
      <p data-testid="entry-version-missing">{t("read.version_missing_text", { name: missing.name, language })}</p>
      <p>
        <a className="button button-primary" href={missing.write} data-testid="entry-version-write">
          {t("read.version_missing_write", { language })}
        </a>{" "}
        <a className="button" href={missing.read}>
          {t("read.version_missing_read", { name: missing.name })}
        </a>
      </p>
    </ErrorScreen>
  );
}
