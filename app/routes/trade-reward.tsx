import { Link } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import type { Route } from "./+types/trade-reward";
import { getAppContext } from "../lib/context.server.ts";
import { movementPage, walletPageData } from "../lib/wallet-pages.server.ts";
import { localizePath, pageUrl, type Locale } from "../../common/locale.ts";
import { pageMeta } from "../lib/meta.ts";
import { MovementList } from "../components/movement-list.tsx";
import "../lib/trade-catalog.ts";
import walletStyles from "../styles/wallet.css?url";

export const meta: Route.MetaFunction = ({ location }) => pageMeta(location, "trade:progress.reward_title");
export const links = () => [{ rel: "stylesheet", href: walletStyles }];
export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

/** `/trade/missions/me/reward`: the task rewards the viewer was paid (wallet lines of `trade_reward`). */
export async function loader({ context, request }: Route.LoaderArgs) {
  const app = getAppContext(context);
  const cursor = pageUrl(request.url).searchParams.get("cursor");
  const page = await movementPage(app, {
    currency: "sinecoin",
    incoming: ["trade_reward"],
    ...(cursor && /^\d{1,18}$/.test(cursor) ? { cursor } : {}),
  });
  return walletPageData(app, page);
}

export default function TradeReward({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("trade");
  const locale = i18n.language as Locale;
  const { lines, nextCursor } = loaderData;
  return (
    <section className="panel" aria-labelledby="trade-reward-title">
      <p>
        <Link to={localizePath("/trade", locale)}>{t("title")}</Link>
      </p>
      <h1 id="trade-reward-title" className="page-title">
        {t("progress.reward_title")}
      </h1>
      {lines.length === 0 ? <p className="muted">{t("progress.empty")}</p> : <MovementList lines={lines} />}
      {nextCursor ? (
        <p>
          <Link to={`${localizePath("/trade/missions/me/reward", locale)}?cursor=${nextCursor}`}>{t("more")}</Link>
        </p>
      ) : null}
    </section>
  );
}
