import { Link } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import type { Route } from "./+types/account-missions";
import { getAppContext, requireViewer } from "../lib/context.server.ts";
import { localizePath, type Locale } from "../../common/locale.ts";
import { pageMeta } from "../lib/meta.ts";
import { AccountLayout } from "../components/account-layout.tsx";
import { EmptyState } from "../components/empty-state.tsx";
import "../lib/centre-catalog.ts";

export const meta: Route.MetaFunction = ({ location }) => pageMeta(location, "centre:missions.title");

/** Missions arrive with the gold and sinecoin economy; until then the page says so and points to the check-in. */
export async function loader({ context }: Route.LoaderArgs) {
  const viewer = requireViewer(getAppContext(context));
  return { username: viewer.username };
}

export default function AccountMissions({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("centre");
  const locale = i18n.language as Locale;
  return (
    <AccountLayout username={loaderData.username}>
      <section className="panel" aria-labelledby="missions-title">
        <h1 id="missions-title" className="page-title">
          {t("missions.title")}
        </h1>
        <EmptyState description={t("missions.placeholder")}>
          <Link to={localizePath("/account/home", locale)} className="button">
            {t("missions.to_checkin")}
          </Link>
        </EmptyState>
      </section>
    </AccountLayout>
  );
}
