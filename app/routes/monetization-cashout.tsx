import { data, Form, Link, redirect } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import type { Route } from "./+types/monetization-cashout";
import { assertFormCsrf, getAppContext, readForm, requireViewer } from "../lib/context.server.ts";
import { cashoutPageData } from "../lib/cashout-pages.server.ts";
import { dispatchIntent, formAction, type FormFailure } from "../../server/lib/operation.ts";
import { cancelCashoutOperation, markSandboxPayoutOperation, requestCashoutOperation } from "../../features/cashouts/operations.ts";
import { formatDate, localizePath, pageUrl, type Locale } from "../../common/locale.ts";
import { pageMeta } from "../lib/meta.ts";
import { Amount } from "../components/coins.tsx";
import { WalletLayout } from "../components/wallet-layout.tsx";
import "../lib/monetization-catalog.ts";
import "../lib/wallet-catalog.ts";
import "../../common/i18n-forms.ts";
import walletStyles from "../styles/wallet.css?url";

export const meta: Route.MetaFunction = ({ location }) => pageMeta(location, "monetization:cashout.title");
export const links = () => [{ rel: "stylesheet", href: walletStyles }];
export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

/**
 * `/monetization/cashout`: the amount, then its whole arithmetic (fee, the tax withheld with its
 * formula, net) before confirming; the cashouts with their states and reasons, cancelling one
 * still waiting, and the payout sandbox's marks for an approved one.
 */
export async function loader({ context, request }: Route.LoaderArgs) {
  const app = getAppContext(context);
  requireViewer(app);
  const params = pageUrl(request.url).searchParams;
  const loaded = await cashoutPageData(app, params.get("amount"));
  const notice = params.get("notice");
  return data(
    { ...loaded.data, notice: notice === "requested" || notice === "cancelled" || notice === "marked" ? notice : null },
    loaded.init ?? {},
  );
}

interface CashoutFormAnswer {
  error?: string;
  fieldErrors?: Record<string, string>;
}

export async function action({ context, request }: Route.ActionArgs) {
  const app = getAppContext(context);
  requireViewer(app);
  const form = await readForm(request);
  assertFormCsrf(app, form);
  const path = localizePath("/monetization/cashout", app.locale);
  const failed = (failure: FormFailure) =>
    data<CashoutFormAnswer>({ error: failure.formError, fieldErrors: failure.fieldErrors }, { status: failure.status });
  const idParam = () => ({ id: String(form.get("cashout_id") ?? "") });
  return dispatchIntent(
    { app, request, form, params: {} },
    {
      request: formAction(requestCashoutOperation, {
        done: () => {
          throw redirect(`${path}?notice=requested`, 303);
        },
        failed,
      }),
      cancel: formAction(cancelCashoutOperation, {
        params: idParam,
        done: () => {
          throw redirect(`${path}?notice=cancelled`, 303);
        },
        failed,
      }),
      sandbox: formAction(markSandboxPayoutOperation, {
        params: idParam,
        done: () => {
          throw redirect(`${path}?notice=marked`, 303);
        },
        failed,
      }),
    },
  );
}

function yuan(fen: number): string {
  return (fen / 100).toFixed(2);
}

export default function MonetizationCashout({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("monetization");
  const locale = i18n.language as Locale;
  const d = loaderData;
  const answer = actionData as CashoutFormAnswer | undefined;
  const path = localizePath("/monetization/cashout", locale);
  const brackets = d.tax.brackets
    .map((b, index) =>
      b.up_to_fen === null
        ? t("cashout.bracket_last", { rate: b.rate, quick: yuan(b.quick_deduction_fen) })
        : index === 0
          ? t("cashout.bracket", { rate: b.rate, upTo: yuan(b.up_to_fen) })
          : t("cashout.bracket_quick", { rate: b.rate, upTo: yuan(b.up_to_fen), quick: yuan(b.quick_deduction_fen) }),
    )
    .join(locale === "en" ? "; " : "；");
  const q = d.preview;
  return (
    <WalletLayout>
      <section className="panel cashout-page" aria-labelledby="cashout-title">
        <h1 id="cashout-title" className="page-title">
          {t("cashout.title")}
        </h1>
        <p className="muted">{t("cashout.intro", { days: d.settlementDays })}</p>
        {d.notice ? (
          <p className="notice" role="status">
            {t(`cashout.${d.notice}`)}
          </p>
        ) : null}
        <dl className="amount-cards">
          <div className="amount-card">
            <dt>{t("cashout.cashable")}</dt>
            <dd data-testid="cashable">
              <Amount value={d.wallet.cashoutable_sinecoin_profit} currency="sinecoin" />
            </dd>
          </div>
          <div className="amount-card">
            <dt>{t("cashout.pending")}</dt>
            <dd data-testid="pending">
              <Amount value={d.pending} currency="sinecoin" />
            </dd>
          </div>
        </dl>
        <p className="muted">{t("cashout.pending_note", { days: d.settlementDays })}</p>
        {d.debt > 0 ? <p className="notice">{t("cashout.debt", { amount: d.debt })}</p> : null}
        <p data-testid="cashout-payout">
          {d.payout ? (
            <>
              {t("cashout.payout_current", {
                provider: t(`cashout.provider_${d.payout.provider}`),
                account: d.payout.account,
                name: d.payout.real_name,
              })}{" "}
              <Link to={localizePath("/wallet/accounts", locale)}>{t("cashout.payout_change")}</Link>
            </>
          ) : (
            <>
              {t("cashout.payout_none")} <Link to={localizePath("/wallet/accounts", locale)}>{t("cashout.payout_add")}</Link>
            </>
          )}
        </p>
        <Form method="get" action={path} className="wallet-form" id="cashout-preview-form">
          <label>
            {t("cashout.amount")}
            <input type="number" name="amount" min={d.min} step={1} required defaultValue={d.amount ?? String(d.min)} />
          </label>
          <p className="muted">{t("cashout.min", { min: d.min })}</p>
          <p>
            <button type="submit" className="button">
              {t("cashout.preview")}
            </button>
          </p>
        </Form>
        {d.previewError || answer?.error || answer?.fieldErrors?.amount ? (
          <p className="form-error" role="alert">
            {answer?.fieldErrors?.amount ?? answer?.error ?? d.previewError}
          </p>
        ) : null}
        {q ? (
          <section aria-labelledby="cashout-arithmetic" className="cashout-arithmetic">
            <h2 id="cashout-arithmetic" className="section-title">
              {t("cashout.arithmetic")}
            </h2>
            <table className="data-table" data-testid="cashout-arithmetic">
              <tbody>
                <tr>
                  <th scope="row">{t("cashout.row_amount")}</th>
                  <td>{t("cashout.coins", { count: q.amount })}</td>
                </tr>
                <tr>
                  <th scope="row">{t("cashout.row_fee", { percent: d.feePermille / 10 })}</th>
                  <td>− {t("cashout.coins", { count: q.fee })}</td>
                </tr>
                <tr>
                  <th scope="row">{t("cashout.row_gross", { rate: yuan(q.fen_per_sinecoin) })}</th>
                  <td>{`¥${yuan(q.gross_fen)}`}</td>
                </tr>
                <tr>
                  <th scope="row">{t("cashout.row_deduction")}</th>
                  <td>{`− ¥${yuan(q.deduction_fen)}`}</td>
                </tr>
                <tr>
                  <th scope="row">{t("cashout.row_taxable")}</th>
                  <td>{`¥${yuan(q.taxable_fen)}`}</td>
                </tr>
                <tr>
                  <th scope="row">
                    {t("cashout.row_tax", {
                      rate: q.tax_rate,
                      quick: q.quick_deduction_fen > 0 ? t("cashout.row_quick", { amount: yuan(q.quick_deduction_fen) }) : "",
                    })}
                  </th>
                  <td data-testid="cashout-tax">{`− ¥${yuan(q.tax_withheld)}`}</td>
                </tr>
                <tr>
                  <th scope="row">{t("cashout.row_net")}</th>
                  <td data-testid="cashout-net">
                    <strong>{`¥${yuan(q.net_fen)}`}</strong>
                  </td>
                </tr>
              </tbody>
            </table>
            <details>
              <summary>{t("cashout.formula_title")}</summary>
              <p>
                {t("cashout.formula", {
                  threshold: yuan(d.tax.threshold_fen),
                  fixed: yuan(d.tax.fixed_deduction_fen),
                  percent: d.tax.percent_deduction,
                  brackets,
                })}
              </p>
            </details>
            {d.previewError ? null : (
              <Form method="post" action={path}>
                <input type="hidden" name="csrftoken" value={d.csrfToken} />
                <input type="hidden" name="idempotency_key" value={d.idempotencyKey} />
                <input type="hidden" name="amount" value={q.amount} />
                <button type="submit" name="intent" value="request" className="button button-primary">
                  {t("cashout.confirm")}
                </button>
              </Form>
            )}
          </section>
        ) : null}
        <h2 className="section-title">{t("cashout.history")}</h2>
        {d.cashouts.length === 0 ? <p className="muted">{t("cashout.none")}</p> : null}
        <ul className="cashout-list" data-testid="cashout-list">
          {d.cashouts.map((cashout) => (
            <li key={cashout.id} data-status={cashout.status}>
              <span>{formatDate(cashout.created_at, locale, { dateStyle: "medium", timeStyle: "short" })}</span> ·{" "}
              <span>{t("cashout.coins", { count: cashout.amount })}</span> · <span>{`¥${yuan(cashout.net_fen)}`}</span> ·{" "}
              <strong>{t(`cashout.status.${cashout.status}`)}</strong>
              {cashout.reason ? <span className="muted"> · {t("cashout.reason", { reason: cashout.reason })}</span> : null}
              {cashout.status === "requested" ? (
                <Form method="post" action={path} className="inline-form">
                  <input type="hidden" name="csrftoken" value={d.csrfToken} />
                  <input type="hidden" name="cashout_id" value={cashout.id} />
                  <button type="submit" name="intent" value="cancel" className="button">
                    {t("cashout.cancel")}
                  </button>
                </Form>
              ) : null}
              {cashout.status === "approved" && cashout.provider === "sandbox" ? (
                <Form method="post" action={path} className="inline-form sandbox-payout">
                  <input type="hidden" name="csrftoken" value={d.csrfToken} />
                  <input type="hidden" name="cashout_id" value={cashout.id} />
                  <input type="hidden" name="intent" value="sandbox" />
                  <span className="muted">
                    {t("cashout.sandbox_title")}: {t("cashout.sandbox_note")}
                  </span>{" "}
                  <button type="submit" name="outcome" value="paid" className="button">
                    {t("cashout.sandbox_paid")}
                  </button>{" "}
                  <button type="submit" name="outcome" value="failed" className="button">
                    {t("cashout.sandbox_failed")}
                  </button>
                </Form>
              ) : null}
            </li>
          ))}
        </ul>
      </section>
    </WalletLayout>
  );
}
