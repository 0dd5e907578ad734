import { Link } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import type { Route } from "./+types/admin-dashboard";
import { getAppContext } from "../lib/context.server.ts";
import { dashboardLoader } from "../lib/admin-pages.server.ts";
import { formatDate, localizePath, type Locale } from "../../common/locale.ts";
import { pageMeta } from "../lib/meta.ts";
import "../lib/admin-catalog.ts";

export const meta: Route.MetaFunction = ({ location }) => pageMeta(location, "admin:menu.dashboard");

/** `/admin`: what needs attention. */
export async function loader({ context }: Route.LoaderArgs) {
  return dashboardLoader(getAppContext(context));
}

export default function AdminDashboard({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("admin");
  const locale = i18n.language as Locale;
  const check = loaderData.lastLedgerCheck;
  return (
    <section className="panel">
      <h1 className="page-title">{t("menu.dashboard")}</h1>
      <dl className="admin-dashboard">
        {loaderData.queues.map((queue) => (
          <div key={queue.key} className="admin-stat">
            <dt>
              <Link to={localizePath(queue.path, locale)}>{t(`dashboard.queues.${queue.key}`)}</Link>
            </dt>
            <dd data-testid={`queue-${queue.key}`}>{queue.count}</dd>
          </div>
        ))}
        {loaderData.canSeeLedger ? (
          <div className="admin-stat">
            <dt>{t("dashboard.last_ledger_check")}</dt>
            <dd>
              {check
                ? `${formatDate(check.ranAt, locale, { dateStyle: "medium", timeStyle: "short" })} · ${t(check.consistent ? "dashboard.consistent" : "dashboard.inconsistent")}`
                : t("dashboard.never")}
            </dd>
          </div>
        ) : null}
        <div className="admin-stat">
          <dt>{t("dashboard.sign_ups_today")}</dt>
          <dd>{loaderData.signUpsToday}</dd>
        </div>
        <div className="admin-stat">
          <dt>{t("dashboard.content_today")}</dt>
          <dd>{loaderData.contentToday}</dd>
        </div>
      </dl>
    </section>
  );
}
