import { Link } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import type { Route } from "./+types/account-missions";
import { getAppContext } from "../lib/context.server.ts";
import { missionAction, missionPage } from "../lib/missions-pages.server.ts";
import { localizePath, pageUrl, type Locale } from "../../common/locale.ts";
import { pageMeta } from "../lib/meta.ts";
import { AccountLayout } from "../components/account-layout.tsx";
import { MissionList } from "../components/mission-list.tsx";
import { ClaimAnswer } from "../components/mission-claim-answer.tsx";
import "../lib/centre-catalog.ts";
import "../lib/missions-catalog.ts";
import walletStyles from "../styles/wallet.css?url";
import missionStyles from "../styles/missions.css?url";

export const meta: Route.MetaFunction = ({ location }) => pageMeta(location, "missions:title");
export const links = () => [
  { rel: "stylesheet", href: walletStyles },
  { rel: "stylesheet", href: missionStyles },
];
export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

/** `/account/missions`: the daily (default) or weekly missions with their progress, and Claim. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const scope = pageUrl(request.url).searchParams.get("scope") === "weekly" ? "weekly" : "daily";
  return missionPage(getAppContext(context), request, scope);
}

export async function action(args: Route.ActionArgs) {
  return missionAction(args);
}

export default function AccountMissions({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("missions");
  const locale = i18n.language as Locale;
  const path = localizePath("/account/missions", locale);
  return (
    <AccountLayout username={loaderData.username}>
      <section className="panel" aria-labelledby="missions-title">
        <h1 id="missions-title" className="page-title">
          {t("title")}
        </h1>
        <p className="muted">{t("intro")}</p>
        <nav aria-label={t("scopes.label")} className="mission-scopes">
          {(["daily", "weekly"] as const).map((scope) => (
            <Link
              key={scope}
              to={scope === "daily" ? path : `${path}?scope=${scope}`}
              aria-current={loaderData.scope === scope ? "page" : undefined}
            >
              {t(`scopes.${scope}`)}
            </Link>
          ))}
          {loaderData.creator ? <Link to={localizePath("/monetization/missions", locale)}>{t("scopes.creator")}</Link> : null}
        </nav>
        <ClaimAnswer answer={actionData} />
        <MissionList missions={loaderData.missions} csrfToken={loaderData.csrfToken} />
        <p className="muted">{t("resets_daily")}</p>
        <p>
          <Link to={localizePath("/account/home", locale)}>{t("to_checkin")}</Link> ·{" "}
          <Link to={localizePath("/trade", locale)}>{t("to_trade")}</Link>
        </p>
      </section>
    </AccountLayout>
  );
}
