import { Form, Link, redirect } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import type { Route } from "./+types/creator-content";
import { assertFormCsrf, getAppContext, readForm, requireViewer } from "../lib/context.server.ts";
import { withFormToken } from "../lib/circle-pages.server.ts";
import { formatDate, localizePath, pageUrl, type Locale } from "../../common/locale.ts";
import { pageMeta } from "../lib/meta.ts";
import { CreatorLayout } from "../components/creator-layout.tsx";
import { ConfirmButton } from "../components/confirm-button.tsx";
import { EmptyState } from "../components/empty-state.tsx";
import { dispatchIntent, failuresOnErrorScreen, formAction, type FormPost } from "../../server/lib/operation.ts";
import { creatorKinds, listCreatorContent } from "../../features/creator/content.ts";
import { creatorContentQuery, deleteCreatorContentOperation, presentCreatorContentPage } from "../../features/creator/operations.ts";
import "../lib/creator-catalog.ts";
import creatorStyles from "../styles/creator.css?url";

export const meta: Route.MetaFunction = ({ location }) => pageMeta(location, "creator:content.title");
export const links = () => [{ rel: "stylesheet", href: creatorStyles }];
export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

/** `/creator/manage/content`: the user's writings and books (`?kind=`, `?q=`, `?cursor=`), each with edit and delete. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const app = getAppContext(context);
  const viewer = requireViewer(app);
  const params = pageUrl(request.url).searchParams;
  const query = creatorContentQuery.parse({
    kind: params.get("kind") ?? undefined,
    q: params.get("q") ?? undefined,
    cursor: params.get("cursor") ?? undefined,
  });
  const page = presentCreatorContentPage(await listCreatorContent(app.db, viewer, query));
  return withFormToken(app, {
    kinds: creatorKinds(),
    kind: query.kind ?? null,
    q: query.q ?? "",
    deleted: params.get("notice") === "deleted",
    ...page,
  });
}

type ContentAnswer = { confirmDelete: { type: string; id: number } | null };

/** Deleting asks first (a dialog with JavaScript, the question on the page without), then goes back to the list (PRG). */
export async function action({ context, request }: Route.ActionArgs) {
  const app = getAppContext(context);
  requireViewer(app);
  const form = await readForm(request);
  assertFormCsrf(app, form);
  const target = () => ({ type: String(form.get("type") ?? ""), id: String(form.get("id") ?? "") });
  const back = () => {
    const list = pageUrl(request.url).searchParams;
    const search = new URLSearchParams();
    for (const name of ["kind", "q"]) if (list.get(name)) search.set(name, list.get(name)!);
    search.set("notice", "deleted");
    return `${localizePath("/creator/manage/content", app.locale)}?${search.toString()}`;
  };
  const remove = async (post: FormPost): Promise<ContentAnswer> => {
    if (post.form.get("confirmed") !== "1") {
      const { type, id } = target();
      return { confirmDelete: { type, id: Number(id) } };
    }
    return formAction(deleteCreatorContentOperation, {
      params: target,
      done: () => {
        throw redirect(back(), 303);
      },
      ...failuresOnErrorScreen,
    })(post);
  };
  return dispatchIntent({ app, request, form, params: {} }, { delete: remove });
}

export default function CreatorContent({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation(["creator", "common"]);
  const locale = i18n.language as Locale;
  const { items, kinds, kind, q, csrfToken, deleted } = loaderData;
  const asked = (actionData as ContentAnswer | undefined)?.confirmDelete ?? null;
  const listPath = localizePath("/creator/manage/content", locale);
  const href = (params: Record<string, string | null>) => {
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(params)) if (value) search.set(name, value);
    const text = search.toString();
    return text ? `${listPath}?${text}` : listPath;
  };
  const current = href({ kind, q });
  return (
    <CreatorLayout>
      <section className="panel" aria-labelledby="creator-content-title">
        <h1 id="creator-content-title" className="page-title">
          {t("content.title")}
        </h1>
        {deleted ? (
          <p className="notice" role="status">
            {t("content.deleted")}
          </p>
        ) : null}
        <div className="creator-filters">
          <nav className="tabs-nav" aria-label={t("content.filter_label")}>
            <Link to={href({ q })} aria-current={kind === null ? "page" : undefined}>
              {t("content.all_kinds")}
            </Link>
            {kinds.map((name) => (
              <Link key={name} to={href({ kind: name, q })} aria-current={kind === name ? "page" : undefined}>
                {t(`content.kinds.${name}`)}
              </Link>
            ))}
          </nav>
          <Form method="get" action={listPath} className="creator-search" role="search">
            {kind ? <input type="hidden" name="kind" value={kind} /> : null}
            <label htmlFor="creator-search">{t("content.search_label")}</label>
            <input
              id="creator-search"
              type="search"
              name="q"
              defaultValue={q}
              maxLength={100}
              placeholder={t("content.search_placeholder")}
            />
            <button type="submit" className="button">
              {t("content.search")}
            </button>
            {q ? <Link to={href({ kind })}>{t("content.clear")}</Link> : null}
          </Form>
        </div>
        {items.length === 0 ? (
          <EmptyState description={q ? t("content.empty_search") : t("content.empty")}>
            <Link to={localizePath("/account/drafts", locale)}>{t("content.drafts_hint")}</Link>
          </EmptyState>
        ) : (
          <div className="table-scroll">
            <table className="data-table" data-testid="creator-content">
              <thead>
                <tr>
                  <th scope="col">{t("content.column_title")}</th>
                  <th scope="col">{t("content.column_kind")}</th>
                  <th scope="col">{t("content.column_status")}</th>
                  <th scope="col">{t("content.column_views")}</th>
                  <th scope="col">{t("content.column_likes")}</th>
                  <th scope="col">{t("content.column_comments")}</th>
                  <th scope="col">{t("content.column_published")}</th>
                  <th scope="col">{t("content.column_actions")}</th>
                </tr>
              </thead>
              <tbody>
                {items.map((item) => (
                  <tr key={`${item.type}-${item.id}`} data-type={item.type} data-id={item.id}>
                    <td>
                      <Link to={localizePath(item.path, locale)}>{item.title}</Link>
                    </td>
                    <td>{t(`content.kind.${item.kind}`)}</td>
                    <td>{t(`content.status.${item.status}`)}</td>
                    <td>{item.views}</td>
                    <td>{item.likes}</td>
                    <td>{item.comments}</td>
                    <td>
                      <time dateTime={item.published_at}>{formatDate(item.published_at, locale, { dateStyle: "medium" })}</time>
                    </td>
                    <td>
                      <div className="creator-actions">
                        <Link
                          className="button"
                          to={localizePath(item.edit_path, locale)}
                          aria-label={t("content.edit_label", { title: item.title })}
                        >
                          {t("content.edit")}
                        </Link>
                        <ConfirmButton
                          id={`delete-${item.type}-${item.id}`}
                          action={current}
                          encType="application/x-www-form-urlencoded"
                          csrfToken={csrfToken}
                          intent="delete"
                          fields={{ type: item.type, id: item.id }}
                          label={t("content.delete")}
                          ariaLabel={t("content.delete_label", { title: item.title })}
                          question={t("content.delete_question", { title: item.title })}
                          confirmLabel={t("content.delete_confirm")}
                          cancelLabel={t("content.cancel")}
                          danger
                          asked={asked !== null && asked.type === item.type && asked.id === item.id}
                          cancelTo={current}
                        />
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {loaderData.next_cursor ? (
          <p className="writing-list-more">
            <Link
              className="button"
              to={`${href({ kind, q })}${kind || q ? "&" : "?"}cursor=${encodeURIComponent(loaderData.next_cursor)}`}
            >
              {t("content.more")}
            </Link>
          </p>
        ) : null}
      </section>
    </CreatorLayout>
  );
}
