import { Form, Link } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import type { Route } from "./+types/admin-content";
import { getAppContext } from "../lib/context.server.ts";
import { contentAction, contentLoader } from "../lib/admin-content-pages.server.ts";
import { formatDate, localizePath, type Locale } from "../../common/locale.ts";
import { contentKinds } from "../../features/admin/constants.ts";
import { pageMeta } from "../lib/meta.ts";
import "../lib/admin-catalog.ts";

export const meta: Route.MetaFunction = ({ location }) => pageMeta(location, "admin:menu.content");
export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

/** `/admin/content?kind=&circle=&author=&q=`: any content, hidden or not; hide, restore, protect, each with a reason. */
export async function loader({ context, request }: Route.LoaderArgs) {
  return contentLoader(getAppContext(context), request);
}

export async function action({ context, request }: Route.ActionArgs) {
  return contentAction(getAppContext(context), request);
}

export default function AdminContent({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("admin");
  const locale = i18n.language as Locale;
  const base = localizePath("/admin/content", locale);
  const { filters } = loaderData;
  const notice = actionData && "notice" in actionData ? actionData.notice : null;
  const error = actionData && "formError" in actionData ? actionData.formError : null;
  const more = loaderData.nextCursor ? `${base}?${new URLSearchParams({ ...filters, cursor: String(loaderData.nextCursor) })}` : null;
  return (
    <section className="panel">
      <h1 className="page-title">{t("menu.content")}</h1>
      {notice ? (
        <p className="notice" role="status">
          {notice}
        </p>
      ) : null}
      {error ? (
        <p className="form-error" role="alert">
          {error}
        </p>
      ) : null}
      <Form method="get" action={base} role="search">
        <label>
          {t("content.kind")}{" "}
          <select name="kind" defaultValue={filters.kind}>
            <option value="">{t("content.any_kind")}</option>
            {contentKinds.map((kind) => (
              <option key={kind} value={kind}>
                {t(`content.kinds.${kind}`)}
              </option>
            ))}
          </select>
        </label>{" "}
        <label>
          {t("content.circle")} <input name="circle" inputMode="numeric" pattern="[0-9]*" size={6} defaultValue={filters.circle} />
        </label>{" "}
        <label>
          {t("content.author")} <input name="author" defaultValue={filters.author} />
        </label>{" "}
        <label>
          {t("content.text")} <input type="search" name="q" defaultValue={filters.q} />
        </label>{" "}
        <button type="submit">{t("content.search")}</button>
      </Form>
      {loaderData.results.length === 0 ? (
        <p>{t("content.none_found")}</p>
      ) : (
        <table className="admin-table">
          <thead>
            <tr>
              <th>{t("content.kind")}</th>
              <th>{t("content.title")}</th>
              <th>{t("content.author")}</th>
              <th>{t("content.state")}</th>
              <th>{t("content.time")}</th>
              <th>{t("content.actions")}</th>
            </tr>
          </thead>
          <tbody>
            {loaderData.results.map((row) => (
              <tr key={`${row.type}:${row.id}`} data-testid={`content-${row.type}-${row.id}`}>
                <td>{t(`content.kinds.${row.type}`)}</td>
                <td>{row.path ? <Link to={localizePath(row.path, locale)}>{row.title}</Link> : row.title}</td>
                <td>{row.author ? <Link to={localizePath(`/admin/users/${row.author.id}`, locale)}>{row.author.username}</Link> : ""}</td>
                <td>
                  {t(row.hidden ? "content.hidden" : "content.shown")}
                  {row.protected === null ? null : ` · ${t(row.protected ? "content.protected" : "content.unprotected")}`}
                </td>
                <td>{formatDate(row.created_at, locale, { dateStyle: "medium", timeStyle: "short" })}</td>
                <td>
                  <Form method="post" className="inline-form">
                    <input type="hidden" name="csrftoken" value={loaderData.csrfToken} />
                    <input type="hidden" name="type" value={row.type} />
                    <input type="hidden" name="id" value={row.id} />
                    <label>
                      {t("content.reason")} <input name="reason" required maxLength={500} />
                    </label>{" "}
                    <button type="submit" name="intent" value={row.hidden ? "restore" : "hide"}>
                      {t(row.hidden ? "content.restore" : "content.hide")}
                    </button>
                    {row.protected === null ? null : (
                      <>
                        {" "}
                        <button type="submit" name="intent" value={row.protected ? "unprotect" : "protect"}>
                          {t(row.protected ? "content.unprotect" : "content.protect")}
                        </button>
                      </>
                    )}{" "}
                    <Link to={`${localizePath("/admin/audit", locale)}?target=${row.type}:${row.id}`}>{t("content.history")}</Link>
                  </Form>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {more ? (
        <p>
          <Link to={more}>{t("content.more")}</Link>
        </p>
      ) : null}
    </section>
  );
}
