import { Link } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import type { Route } from "./+types/monetization-missions";
import { getAppContext } from "../lib/context.server.ts";
import { missionAction, missionPage } from "../lib/missions-pages.server.ts";
import { localizePath, type Locale } from "../../common/locale.ts";
import { pageMeta } from "../lib/meta.ts";
import { MissionList } from "../components/mission-list.tsx";
import { ClaimAnswer } from "../components/mission-claim-answer.tsx";
import "../lib/missions-catalog.ts";
import walletStyles from "../styles/wallet.css?url";
import missionStyles from "../styles/missions.css?url";

export const meta: Route.MetaFunction = ({ location }) => pageMeta(location, "missions:creator_title");
export const links = () => [
  { rel: "stylesheet", href: walletStyles },
  { rel: "stylesheet", href: missionStyles },
];
export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

/** `/monetization/missions`: creator missions for monetization participants, paid in sinecoin profit. */
export async function loader({ context, request }: Route.LoaderArgs) {
  return missionPage(getAppContext(context), request, "creator");
}

export async function action(args: Route.ActionArgs) {
  return missionAction(args);
}

export default function MonetizationMissions({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("missions");
  const locale = i18n.language as Locale;
  return (
    <section className="panel" aria-labelledby="creator-missions-title">
      <h1 id="creator-missions-title" className="page-title">
        {t("creator_title")}
      </h1>
      <p className="muted">{t("creator_intro")}</p>
      <ClaimAnswer answer={actionData} />
      <MissionList missions={loaderData.missions} csrfToken={loaderData.csrfToken} />
      <p className="muted">{t("resets_daily")}</p>
      <p>
        <Link to={localizePath("/account/missions", locale)}>{t("title")}</Link>
      </p>
    </section>
  );
}
