import { Form, Link, redirect } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import type { Route } from "./+types/encyclopedia-history";
import { getAppContext, notFound, signedInFormPost, tagPage } from "../lib/context.server.ts";
import { circleIdOf, tagCirclePage } from "../lib/circle-pages.server.ts";
import { orNotFound, pathIdOf, redirectToOwnCircle } from "../lib/book-pages.server.ts";
import { withActionBar } from "../lib/interaction-pages.server.ts";
import { pageMeta } from "../lib/meta.ts";
import { formatDate, localizePath, pageUrl, type Locale } from "../../common/locale.ts";
import { idFromText } from "../../common/id.ts";
import { Breadcrumb } from "../components/breadcrumb.tsx";
import { EntryDiff } from "../components/entry-diff.tsx";
import { can } from "../../features/encyclopedia/policy.ts";
import { loadReadableEntry } from "../../features/encyclopedia/service.ts";
import { diffRevisions, listRevisions, type RevisionDiff } from "../../features/encyclopedia/revisions.ts";
import { revertEntryOperation } from "../../features/encyclopedia/operations.ts";
import { entryPath } from "../../features/encyclopedia/paths.ts";
import { dispatchIntent, failuresOnErrorScreen, formAction } from "../../server/lib/operation.ts";
import { subjectPageTags } from "../../server/lib/cache-tags.ts";
import "../lib/encyclopedia-catalog.ts";
import encyclopediaStyles from "../styles/encyclopedia.css?url";

export const links = () => [{ rel: "stylesheet", href: encyclopediaStyles }];

export const meta: Route.MetaFunction = ({ location, loaderData }) =>
  pageMeta(location, (t) => t("encyclopedia:history.title", { name: loaderData?.entry.name ?? "" }));

export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

/**
 * `/circles/{cid}/encyclopedia/{entry_id}/history`: the revisions (newest first, `?cursor=`), the
 * diff between any two (`?from=&to=`, `&view=side` side by side), revert for whoever may edit.
 */
export async function loader({ context, params, request }: Route.LoaderArgs) {
  const app = getAppContext(context);
  const circleId = circleIdOf(request, params.circleId);
  const entryId = pathIdOf(request, params.entryId);
  const { row, access } = await orNotFound(request, () => loadReadableEntry(app.db, app.viewer, entryId));
  redirectToOwnCircle(request, circleId, row.circleId);
  tagPage(app, ...subjectPageTags("entry", row.id));
  await tagCirclePage(app, row.circleId);
  const query = pageUrl(request.url).searchParams;
  const cursorText = query.get("cursor");
  const cursor = cursorText === null ? null : idFromText(cursorText);
  if (cursorText !== null && cursor === null) notFound(request);
  const page = await listRevisions(app.db, app.viewer, row.id, cursor);
  const fromText = query.get("from");
  const toText = query.get("to");
  let diff: RevisionDiff | null = null;
  if (fromText !== null || toText !== null) {
    const from = idFromText(fromText);
    const to = idFromText(toText);
    if (from === null || to === null) notFound(request);
    diff = await orNotFound(request, () => diffRevisions(app.db, app.viewer, row.id, from, to));
  }
  const value = {
    entry: { id: row.id, circleId: row.circleId, name: row.name, language: row.language },
    revisions: page.revisions,
    nextCursor: page.nextCursor,
    diff,
    view: query.get("view") === "side" ? ("side" as const) : ("inline" as const),
    canEdit: can(app.viewer, "edit", access, row),
  };
  return withActionBar(app, value, { type: "entry", id: row.id, authorId: row.creatorId });
}

/** Reverting to a revision (a new revision with its summary): whoever may edit the entry. */
export async function action(args: Route.ActionArgs) {
  return dispatchIntent(await signedInFormPost(args), {
    revert: formAction(revertEntryOperation, {
      params: ({ params, form }) => ({ id: params.entryId, revision: form.get("revision") }),
      done: (answer, { app }) => {
        throw redirect(localizePath(`${answer.url}/history`, app.locale));
      },
      ...failuresOnErrorScreen,
    }),
  });
}

const dateTime: Intl.DateTimeFormatOptions = { dateStyle: "medium", timeStyle: "short" };

export default function EncyclopediaHistory({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("encyclopedia");
  const locale = i18n.language as Locale;
  const { entry, revisions, diff, view, canEdit, csrfToken } = loaderData;
  const entryHref = localizePath(entryPath(entry), locale);
  const historyHref = `${entryHref}/history`;
  const newest = revisions[0];
  const oldest = revisions.at(-1);
  return (
    <section className="entry-history" aria-labelledby="entry-history-title">
      <Breadcrumb
        label={t("read.breadcrumb")}
        trail={[
          { to: localizePath(`/circles/${entry.circleId}?tab=encyclopedia`, locale), label: t("read.encyclopedia") },
          { to: entryHref, label: entry.name },
        ]}
        current={t("history.breadcrumb")}
      />
      <h1 id="entry-history-title" className="page-title">
        {t("history.title", { name: entry.name })}
      </h1>
      {diff ? (
        <section className="panel" aria-labelledby="entry-diff-title">
          <h2 id="entry-diff-title">{t("history.diff_title", { from: diff.from.number, to: diff.to.number })}</h2>
          <nav className="diff-views" aria-label={t("history.view_label")}>
            <Link
              to={`${historyHref}?from=${diff.from.id}&to=${diff.to.id}&view=side`}
              aria-current={view === "side" ? "true" : undefined}
              data-testid="diff-side"
            >
              {t("history.side_by_side")}
            </Link>
            <Link
              to={`${historyHref}?from=${diff.from.id}&to=${diff.to.id}`}
              aria-current={view === "inline" ? "true" : undefined}
              data-testid="diff-inline"
            >
              {t("history.inline")}
            </Link>
          </nav>
          <EntryDiff diff={diff} view={view} />
        </section>
      ) : null}
      <Form method="get" action={historyHref} className="panel">
        <div className="entry-revisions-scroll">
          <table className="entry-revisions" data-testid="entry-revisions">
            <thead>
              <tr>
                <th scope="col">{t("history.from")}</th>
                <th scope="col">{t("history.to")}</th>
                <th scope="col">{t("history.revision")}</th>
                <th scope="col">{t("history.summary")}</th>
                <th scope="col">{t("history.size")}</th>
                {canEdit ? <th scope="col">{t("history.revert")}</th> : null}
              </tr>
            </thead>
            <tbody>
              {revisions.map((revision) => (
                <tr key={revision.id} data-testid="revision-row">
                  <td>
                    <input
                      type="radio"
                      name="from"
                      value={revision.id}
                      defaultChecked={revision.id === (diff?.from.id ?? oldest?.id)}
                      aria-label={t("history.from_label", { number: revision.number })}
                    />
                  </td>
                  <td>
                    <input
                      type="radio"
                      name="to"
                      value={revision.id}
                      defaultChecked={revision.id === (diff?.to.id ?? newest?.id)}
                      aria-label={t("history.to_label", { number: revision.number })}
                    />
                  </td>
                  <td>
                    <Link to={revision.current ? entryHref : `${entryHref}?revision=${revision.id}`}>#{revision.number}</Link>{" "}
                    <time dateTime={revision.createdAt}>{formatDate(revision.createdAt, locale, dateTime)}</time>{" "}
                    {revision.author ? (
                      <Link to={localizePath(`/profile/${revision.author.username}`, locale)}>{revision.author.nickname}</Link>
                    ) : null}
                    {revision.current ? <span className="role-badge">{t("history.current")}</span> : null}
                  </td>
                  <td>
                    {revision.summary || <span className="muted">—</span>}
                    {revision.revertOf !== null ? <span className="muted"> {t("history.reverted")}</span> : null}
                  </td>
                  <td className={revision.sizeDelta >= 0 ? "diff-size-added" : "diff-size-removed"}>
                    {revision.sizeDelta > 0 ? `+${revision.sizeDelta}` : revision.sizeDelta < 0 ? `−${-revision.sizeDelta}` : "0"}
                  </td>
                  {canEdit ? (
                    <td>
                      {revision.current ? null : (
                        <button type="submit" form={`revert-${revision.id}`} className="button" data-testid={`revert-${revision.number}`}>
                          {t("history.revert_button")}
                        </button>
                      )}
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {revisions.length > 1 ? (
          <button type="submit" className="button button-primary" data-testid="compare">
            {t("history.compare")}
          </button>
        ) : null}
        {loaderData.nextCursor !== null ? <Link to={`${historyHref}?cursor=${loaderData.nextCursor}`}>{t("history.older")}</Link> : null}
      </Form>
      {canEdit && csrfToken
        ? revisions
            .filter((revision) => !revision.current)
            .map((revision) => (
              <Form key={revision.id} id={`revert-${revision.id}`} method="post" action={historyHref} hidden>
                <input type="hidden" name="csrftoken" value={csrfToken} />
                <input type="hidden" name="intent" value="revert" />
                <input type="hidden" name="revision" value={revision.id} />
                <input type="hidden" name="summary" value={t("history.revert_summary", { number: revision.number })} />
              </Form>
            ))
        : null}
    </section>
  );
}
