import { Link, redirect } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import type { Route } from "./+types/monetization-result";
import { getAppContext, here, requireViewer } from "../lib/context.server.ts";
import { can } from "../../features/accounts/policy.ts";
import { monthlyStatements } from "../../features/monetization/statements.ts";
import { presentStatement } from "../../features/monetization/operations.ts";
import { incomeSources } from "../../features/ledger/kinds.ts";
import { localizePath, type Locale } from "../../common/locale.ts";
import { pageMeta } from "../lib/meta.ts";
import "../lib/monetization-catalog.ts";

export const meta: Route.MetaFunction = ({ location }) => pageMeta(location, "monetization:result.title");
export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

/**
 * `/monetization/result` (participants): monthly statements, newest first — income by source,
 * refunds, net, and cashouts paid with the fee and the tax withheld — each downloadable as CSV.
 */
export async function loader({ context }: Route.LoaderArgs) {
  const app = getAppContext(context);
  const viewer = requireViewer(app);
  if (!can(app.viewer, "enter_monetization_home")) throw redirect(here(app, "/monetization"));
  return { statements: (await monthlyStatements(app.db, viewer.id)).map(presentStatement) };
}

const yuan = (fen: number) => (fen / 100).toFixed(2);

export default function MonetizationResult({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("monetization");
  const locale = i18n.language as Locale;
  const { statements } = loaderData;
  return (
    <section className="panel" aria-labelledby="monetization-result-title">
      <h1 id="monetization-result-title" className="page-title">
        {t("result.title")}
      </h1>
      <p className="muted">{t("result.intro")}</p>
      {statements.length === 0 ? <p className="muted">{t("result.empty")}</p> : null}
      {statements.map((statement) => (
        <article key={statement.month} className="statement" data-testid="monetization-statement">
          <h2 className="section-title">{t("result.month", { month: statement.month })}</h2>
          <table className="data-table">
            <tbody>
              {incomeSources.map((source) => (
                <tr key={source}>
                  <th scope="row">{t(`home.source.${source}`)}</th>
                  <td>{statement.income[source]}</td>
                </tr>
              ))}
              <tr>
                <th scope="row">{t("result.refunds")}</th>
                <td>{statement.refunds > 0 ? `−${statement.refunds}` : 0}</td>
              </tr>
              <tr>
                <th scope="row">{t("result.net")}</th>
                <td>
                  <strong>{statement.net}</strong>
                </td>
              </tr>
              {statement.debt.incurred > 0 || statement.debt.recovered > 0 || statement.debt.outstanding > 0 ? (
                <>
                  <tr data-testid="statement-debt-incurred">
                    <th scope="row">{t("result.debt_incurred")}</th>
                    <td>{statement.debt.incurred}</td>
                  </tr>
                  <tr>
                    <th scope="row">{t("result.debt_recovered")}</th>
                    <td>{statement.debt.recovered}</td>
                  </tr>
                  <tr data-testid="statement-debt-outstanding">
                    <th scope="row">{t("result.debt_outstanding")}</th>
                    <td>{statement.debt.outstanding}</td>
                  </tr>
                </>
              ) : null}
              <tr>
                <th scope="row">{t("result.cashouts", { count: statement.cashouts.count })}</th>
                <td>{statement.cashouts.amount}</td>
              </tr>
              <tr>
                <th scope="row">{t("result.fee")}</th>
                <td>{statement.cashouts.fee}</td>
              </tr>
              <tr>
                <th scope="row">{t("result.tax")}</th>
                <td>¥{yuan(statement.cashouts.tax_withheld_fen)}</td>
              </tr>
              <tr>
                <th scope="row">{t("result.paid")}</th>
                <td>¥{yuan(statement.cashouts.net_fen)}</td>
              </tr>
            </tbody>
          </table>
          <p>
            <a href={statement.csv_url} download={`${statement.month}.csv`}>
              {t("result.download")}
            </a>
          </p>
        </article>
      ))}
      <p>
        <Link to={localizePath("/monetization/home", locale)}>{t("reward.back")}</Link>
      </p>
    </section>
  );
}
