import { Form, Link } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import type { Route } from "./+types/admin-users";
import { getAppContext } from "../lib/context.server.ts";
import { usersLoader } from "../lib/admin-pages.server.ts";
import { formatDate, localizePath, type Locale } from "../../common/locale.ts";
import { pageMeta } from "../lib/meta.ts";
import "../lib/admin-catalog.ts";

export const meta: Route.MetaFunction = ({ location }) => pageMeta(location, "admin:menu.users");

/** `/admin/users?q=`: find accounts (email and phone masked except for admins). */
export async function loader({ context, request }: Route.LoaderArgs) {
  return usersLoader(getAppContext(context), request);
}

export default function AdminUsers({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("admin");
  const locale = i18n.language as Locale;
  const base = localizePath("/admin/users", locale);
  return (
    <section className="panel">
      <h1 className="page-title">{t("menu.users")}</h1>
      <Form method="get" action={base} role="search">
        <label>
          {t("users.query")} <input type="search" name="q" defaultValue={loaderData.q} />
        </label>{" "}
        <button type="submit">{t("users.search")}</button>
      </Form>
      {loaderData.results.length === 0 ? (
        <p>{t("users.none_found")}</p>
      ) : (
        <table className="admin-table">
          <thead>
            <tr>
              <th>{t("users.username")}</th>
              <th>{t("users.nickname")}</th>
              <th>{t("users.email")}</th>
              <th>{t("users.phone")}</th>
              <th>{t("users.type")}</th>
              <th>{t("users.role")}</th>
              <th>{t("users.suspended_until")}</th>
              <th>{t("users.joined")}</th>
            </tr>
          </thead>
          <tbody>
            {loaderData.results.map((user) => (
              <tr key={user.id}>
                <td>
                  <Link to={`${base}/${user.id}`}>{user.username}</Link>
                </td>
                <td>{user.nickname}</td>
                <td>{user.email ?? ""}</td>
                <td>{user.phone ?? ""}</td>
                <td>{user.user_type}</td>
                <td>{t(`roles.${user.site_role}`)}</td>
                <td>{user.suspended_until ? formatDate(user.suspended_until, locale, { dateStyle: "medium", timeStyle: "short" }) : ""}</td>
                <td>{formatDate(user.created_at, locale)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {loaderData.nextCursor ? (
        <p>
          <Link to={`${base}?${new URLSearchParams({ q: loaderData.q, cursor: String(loaderData.nextCursor) })}`}>{t("users.more")}</Link>
        </p>
      ) : null}
    </section>
  );
}
