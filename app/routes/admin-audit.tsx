import { Form, Link } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import type { Route } from "./+types/admin-audit";
import { getAppContext } from "../lib/context.server.ts";
import { auditLoader } from "../lib/admin-pages.server.ts";
import { formatDate, localizePath, type Locale } from "../../common/locale.ts";
import { pageMeta } from "../lib/meta.ts";
import "../lib/admin-catalog.ts";

export const meta: Route.MetaFunction = ({ location }) => pageMeta(location, "admin:menu.audit");

/** `/admin/audit?actor=&action=&target=&from=&to=`: what staff and the command line did, newest first. */
export async function loader({ context, request }: Route.LoaderArgs) {
  return auditLoader(getAppContext(context), request);
}

const json = (value: unknown) => (value === null || value === undefined ? "" : JSON.stringify(value));

export default function AdminAudit({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("admin");
  const locale = i18n.language as Locale;
  const base = localizePath("/admin/audit", locale);
  const { filters } = loaderData;
  return (
    <section className="panel">
      <h1 className="page-title">{t("menu.audit")}</h1>
      <Form method="get" action={base}>
        {(["actor", "action", "target"] as const).map((name) => (
          <label key={name}>
            {t(`audit.${name}`)} <input name={name} defaultValue={filters[name]} />{" "}
          </label>
        ))}
        {(["from", "to"] as const).map((name) => (
          <label key={name}>
            {t(`audit.${name}`)} <input type="date" name={name} defaultValue={filters[name]} />{" "}
          </label>
        ))}
        <button type="submit">{t("audit.filter")}</button>
      </Form>
      {loaderData.results.length === 0 ? (
        <p>{t("audit.empty")}</p>
      ) : (
        <table className="admin-table">
          <thead>
            <tr>
              <th>{t("audit.time")}</th>
              <th>{t("audit.actor")}</th>
              <th>{t("audit.action")}</th>
              <th>{t("audit.target")}</th>
              <th>{t("audit.before")}</th>
              <th>{t("audit.after")}</th>
              <th>{t("audit.reason")}</th>
              <th>{t("audit.address")}</th>
            </tr>
          </thead>
          <tbody>
            {loaderData.results.map((row) => (
              <tr key={row.id}>
                <td>{formatDate(row.created_at, locale, { dateStyle: "medium", timeStyle: "medium" })}</td>
                <td>
                  {row.actor.username} ({t(`roles.${row.actor.role}`)})
                </td>
                <td>{row.action}</td>
                <td>
                  <Link to={`${base}?target=${encodeURIComponent(row.target)}`}>{row.target}</Link>
                </td>
                <td>
                  <code>{json(row.before)}</code>
                </td>
                <td>
                  <code>{json(row.after)}</code>
                </td>
                <td>{row.reason}</td>
                <td>{row.address}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {loaderData.nextCursor ? (
        <p>
          <Link to={`${base}?${new URLSearchParams({ ...filters, cursor: String(loaderData.nextCursor) })}`}>{t("audit.older")}</Link>
        </p>
      ) : null}
    </section>
  );
}
