import { NavLink, Outlet } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import type { Route } from "./+types/admin-layout";
import { getAppContext } from "../lib/context.server.ts";
import { adminLayoutLoader } from "../lib/admin-pages.server.ts";
import { localizePath, type Locale } from "../../common/locale.ts";
import "../lib/admin-catalog.ts";

/** `/admin/*`: staff only (the site-role policy, on the server); the menu lists only the sections the role may open. */
export async function loader({ context }: Route.LoaderArgs) {
  return adminLayoutLoader(getAppContext(context));
}

export default function AdminLayout({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("admin");
  const locale = i18n.language as Locale;
  return (
    <div className="account-layout admin-area">
      <nav aria-label={t("title")} className="panel account-nav admin-menu">
        <p className="account-nav-title">
          <strong>{t("title")}</strong> · {t(`roles.${loaderData.role}`)}
        </p>
        <ul>
          {loaderData.sections.map((section) => (
            <li key={section.key}>
              <NavLink to={localizePath(section.path, locale)} end={section.key === "dashboard"}>
                {t(`menu.${section.key}`)}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <div className="account-content">
        <Outlet />
      </div>
    </div>
  );
}
