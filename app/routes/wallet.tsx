import { Link } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import type { Route } from "./+types/wallet";
import { getAppContext, requireViewer } from "../lib/context.server.ts";
import { movementPage, walletPageData } from "../lib/wallet-pages.server.ts";
import { incomeHolds } from "../../features/settlement/service.ts";
import { settlementSettings } from "../../features/settlement/settings.ts";
import { localizePath, type Locale } from "../../common/locale.ts";
import { pageMeta } from "../lib/meta.ts";
import { WalletLayout } from "../components/wallet-layout.tsx";
import { Amount } from "../components/coins.tsx";
import { MovementList } from "../components/movement-list.tsx";
import "../lib/wallet-catalog.ts";
import walletStyles from "../styles/wallet.css?url";

export const meta: Route.MetaFunction = ({ location }) => pageMeta(location, "wallet:home.title");
export const links = () => [{ rel: "stylesheet", href: walletStyles }];
export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

/** `/wallet`: balances of sinecoin and gold, profit, the latest movements, the ways in. */
export async function loader({ context }: Route.LoaderArgs) {
  const app = getAppContext(context);
  const { lines } = await movementPage(app, {}, 8);
  const holds = await incomeHolds(app.db, requireViewer(app).id);
  return walletPageData(app, { lines, holds, settlementDays: settlementSettings.days });
}

export default function Wallet({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("wallet");
  const locale = i18n.language as Locale;
  const { wallet, lines, holds, settlementDays } = loaderData;
  return (
    <WalletLayout>
      <section className="panel" aria-labelledby="wallet-title">
        <h1 id="wallet-title" className="page-title">
          {t("home.title")}
        </h1>
        <dl className="wallet-balances" data-testid="wallet-balances">
          <div className="wallet-balance">
            <dt>{t("currency.sinecoin")}</dt>
            <dd data-testid="wallet-sinecoin">
              <Amount value={wallet.sinecoin} currency="sinecoin" />
            </dd>
          </div>
          <div className="wallet-balance">
            <dt>{t("currency.gold")}</dt>
            <dd data-testid="wallet-gold">
              <Amount value={wallet.gold} currency="gold" />
            </dd>
          </div>
          <div className="wallet-balance">
            <dt>{t("home.profit")}</dt>
            <dd>
              <Amount value={wallet.sinecoin_total_profit} currency="sinecoin" />
            </dd>
          </div>
          <div className="wallet-balance">
            <dt>{t("home.cashoutable")}</dt>
            <dd>
              <Amount value={wallet.cashoutable_sinecoin_profit} currency="sinecoin" />
            </dd>
          </div>
          <div className="wallet-balance">
            <dt>{t("home.pending")}</dt>
            <dd data-testid="wallet-pending">
              <Amount value={holds.pending} currency="sinecoin" />
            </dd>
          </div>
        </dl>
        <p className="muted">{t("home.pending_note", { days: settlementDays })}</p>
        {holds.debt > 0 ? <p className="muted">{t("home.debt_note", { debt: holds.debt })}</p> : null}
        <p className="wallet-links">
          <Link className="button button-primary" to={localizePath("/wallet/sinecoin_recharge", locale)}>
            {t("home.recharge")}
          </Link>
          <Link className="button" to={localizePath("/wallet/accounts", locale)}>
            {t("home.exchange")}
          </Link>
        </p>
        <p className="muted">{t("home.free_note")}</p>
        <h2 className="section-title">{t("home.latest")}</h2>
        <MovementList lines={lines} />
        <p>
          <Link to={localizePath("/wallet/sinecoin", locale)}>{t("home.all")}</Link>
        </p>
      </section>
    </WalletLayout>
  );
}
