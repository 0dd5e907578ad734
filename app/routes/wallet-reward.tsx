import { Link } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import type { Route } from "./+types/wallet-reward";
import { getAppContext } from "../lib/context.server.ts";
import { movementPage, walletPageData } from "../lib/wallet-pages.server.ts";
import { localizePath, pageUrl, type Locale } from "../../common/locale.ts";
import { pageMeta } from "../lib/meta.ts";
import { WalletLayout } from "../components/wallet-layout.tsx";
import { Amount } from "../components/coins.tsx";
import { MovementList } from "../components/movement-list.tsx";
import "../lib/wallet-catalog.ts";
import walletStyles from "../styles/wallet.css?url";

export const meta: Route.MetaFunction = ({ location }) => pageMeta(location, "wallet:reward.title");
export const links = () => [{ rel: "stylesheet", href: walletStyles }];
export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

/** What came in from readers: tips, unlocks of one's writings, red packets opened. */
const rewardKinds = ["tip", "unlock", "red_packet_claim"] as const;

/** `/wallet/reward`: tips and red packets received, with the total profit. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const app = getAppContext(context);
  const cursor = pageUrl(request.url).searchParams.get("cursor");
  const page = await movementPage(app, {
    currency: "sinecoin",
    incoming: rewardKinds,
    ...(cursor && /^\d{1,18}$/.test(cursor) ? { cursor } : {}),
  });
  return walletPageData(app, page);
}

export default function WalletReward({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("wallet");
  const locale = i18n.language as Locale;
  const { lines, nextCursor, wallet } = loaderData;
  return (
    <WalletLayout>
      <section className="panel" aria-labelledby="wallet-reward-title">
        <h1 id="wallet-reward-title" className="page-title">
          {t("reward.title")}
        </h1>
        <p className="muted">{t("reward.intro")}</p>
        <p>
          {t("home.profit")}: <Amount value={wallet.sinecoin_total_profit} currency="sinecoin" />
        </p>
        {lines.length === 0 ? <p className="muted">{t("reward.empty")}</p> : <MovementList lines={lines} />}
        {nextCursor ? (
          <p>
            <Link to={`${localizePath("/wallet/reward", locale)}?cursor=${nextCursor}`}>{t("list.more")}</Link>
          </p>
        ) : null}
      </section>
    </WalletLayout>
  );
}
