import { Link, redirect } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import type { Route } from "./+types/monetization-home";
import { getAppContext, here, requireViewer } from "../lib/context.server.ts";
import { withFormToken } from "../lib/circle-pages.server.ts";
import { can } from "../../features/accounts/policy.ts";
import { presentWallet } from "../../features/wallet/operations.ts";
import { monetizationHome } from "../../features/monetization/home.ts";
import { localizePath, type Locale } from "../../common/locale.ts";
import { pageMeta } from "../lib/meta.ts";
import { Amount } from "../components/coins.tsx";
import "../lib/monetization-catalog.ts";
import "../lib/wallet-catalog.ts";

export const meta: Route.MetaFunction = ({ location }) => pageMeta(location, "monetization:home.title");
export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

/**
 * `/monetization/home` (participants): earnings at a glance — the spec's three figures, income
 * still pending settlement and when it becomes available, and this month's income by source
 * (from the ledger, as the profit analysis counts it). Others go to `/monetization`.
 */
export async function loader({ context }: Route.LoaderArgs) {
  const app = getAppContext(context);
  const viewer = requireViewer(app);
  if (!can(app.viewer, "enter_monetization_home")) throw redirect(here(app, "/monetization"));
  const home = await monetizationHome(app.db, viewer, app.now());
  return withFormToken(app, { ...home, wallet: presentWallet(home.wallet) });
}

export default function MonetizationHome({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("monetization");
  const locale = i18n.language as Locale;
  const d = loaderData;
  const figures = [
    ["total_profit", d.wallet.sinecoin_total_profit],
    ["total_cashout", d.wallet.sinecoin_total_cashout],
    ["cashoutable", d.wallet.cashoutable_sinecoin_profit],
    ["pending", d.pending],
  ] as const;
  return (
    <section className="panel monetization-home" aria-labelledby="monetization-home-title">
      <h1 id="monetization-home-title" className="page-title">
        {t("home.title")}
      </h1>
      <dl className="amount-cards" data-testid="monetization-figures">
        {figures.map(([key, value]) => (
          <div className="amount-card" key={key}>
            <dt>{t(`home.${key}`)}</dt>
            <dd>
              <Amount value={value} currency="sinecoin" />
            </dd>
          </div>
        ))}
      </dl>
      <p className="muted">{t("home.settlement", { days: d.settlementDays })}</p>
      {d.debt > 0 ? <p className="notice">{t("cashout.debt", { amount: d.debt })}</p> : null}
      <h2 className="section-title">{t("home.month", { month: d.month })}</h2>
      <table className="data-table" data-testid="monetization-month">
        <tbody>
          {d.bySource.map((row) => (
            <tr key={row.source}>
              <th scope="row">{t(`home.source.${row.source}`)}</th>
              <td>{row.amount}</td>
            </tr>
          ))}
          <tr>
            <th scope="row">{t("home.source.total")}</th>
            <td>
              <strong>{d.monthTotal}</strong>
            </td>
          </tr>
        </tbody>
      </table>
      <p>
        <Link to={localizePath("/monetization/cashout", locale)} className="button button-primary">
          {t("home.cash_out")}
        </Link>{" "}
        <Link to={localizePath("/creator/analysis/profit", locale)}>{t("home.analysis")}</Link>{" "}
        <Link to={localizePath("/monetization/reward", locale)}>{t("reward.title")}</Link>{" "}
        <Link to={localizePath("/monetization/result", locale)}>{t("result.title")}</Link>
      </p>
    </section>
  );
}
