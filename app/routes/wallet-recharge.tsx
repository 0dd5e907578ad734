import { data, Form, redirect } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import type { Route } from "./+types/wallet-recharge";
import { assertFormCsrf, getAppContext, readForm, requireViewer } from "../lib/context.server.ts";
import { walletPageData } from "../lib/wallet-pages.server.ts";
import { dispatchIntent, formAction, type FormFailure } from "../../server/lib/operation.ts";
import { createTopupOperation } from "../../features/payments/operations.ts";
import { freeTopupLeft } from "../../features/payments/service.ts";
import { paymentSettings } from "../../features/payments/settings.ts";
import { economySettings, topupPresets } from "../../features/wallet/settings.ts";
import { localizePath, type Locale } from "../../common/locale.ts";
import { pageMeta } from "../lib/meta.ts";
import { WalletLayout } from "../components/wallet-layout.tsx";
import { AmountChoice, BalanceLine, readAmountChoice } from "../components/amount-choice.tsx";
import "../lib/wallet-catalog.ts";
import "../../common/i18n-forms.ts";
import walletStyles from "../styles/wallet.css?url";

export const meta: Route.MetaFunction = ({ location }) => pageMeta(location, "wallet:recharge.title");
export const links = () => [{ rel: "stylesheet", href: walletStyles }];
export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

/** `/wallet/sinecoin_recharge` ("Get Sinecoin"): presets 10 to 500 or a custom whole amount, WeChat Pay or Alipay. */
export async function loader({ context }: Route.LoaderArgs) {
  const app = getAppContext(context);
  const viewer = requireViewer(app);
  const free = economySettings.topupFenPerSinecoin === 0;
  return walletPageData(app, {
    closed: paymentSettings().mode === "closed",
    // While top-ups are free, what is left of today's allowance.
    freeLeft: free ? await freeTopupLeft(app.db, viewer.id, app.now()) : null,
    freeLimit: economySettings.freeTopupDailyLimit,
    presets: [...topupPresets],
    min: economySettings.topupMin,
    max: economySettings.topupMax,
    fenPerSinecoin: economySettings.topupFenPerSinecoin,
  });
}

interface RechargeAnswer {
  error?: string;
  fieldErrors?: Record<string, string>;
  choice?: string;
  custom?: string;
  method?: string;
}

/** The order is made, then the payer goes to the cashier (PRG); a refusal is said on the form. */
export async function action({ context, request }: Route.ActionArgs) {
  const app = getAppContext(context);
  requireViewer(app);
  const form = await readForm(request);
  assertFormCsrf(app, form);
  const { choice, custom, amount } = readAmountChoice(form);
  const topup = formAction(createTopupOperation, {
    body: () => ({ amount, method: String(form.get("method") ?? "") }),
    done: (answer) => {
      throw redirect(answer.pay_url, 303);
    },
    failed: (failure: FormFailure) =>
      data<RechargeAnswer>(
        { error: failure.formError, fieldErrors: failure.fieldErrors, choice, custom, method: String(form.get("method") ?? "") },
        { status: failure.status },
      ),
  });
  return dispatchIntent({ app, request, form, params: {} }, { topup });
}

export default function WalletRecharge({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("wallet");
  const locale = i18n.language as Locale;
  const { presets, min, max, csrfToken, idempotencyKey, wallet, fenPerSinecoin, closed, freeLeft, freeLimit } = loaderData;
  const answer = actionData as RechargeAnswer | undefined;
  const choice = answer?.choice ?? "50";
  const method = answer?.method ?? "wechat";
  const amountError = answer?.fieldErrors?.amount;
  return (
    <WalletLayout>
      <section className="panel" aria-labelledby="recharge-title">
        <h1 id="recharge-title" className="page-title">
          {t("recharge.title")}
        </h1>
        <p className="notice" role="note">
          {closed ? t("recharge.closed") : t("recharge.free")}
        </p>
        {freeLeft !== null && !closed ? (
          <p className="muted" data-testid="free-left">
            {t("recharge.free_left", { left: freeLeft, limit: freeLimit })}
          </p>
        ) : null}
        <BalanceLine label={t("recharge.balance")} value={wallet.sinecoin} />
        <Form method="post" action={localizePath("/wallet/sinecoin_recharge", locale)} className="wallet-form" id="recharge-form">
          <input type="hidden" name="csrftoken" value={csrfToken} />
          <input type="hidden" name="idempotency_key" value={idempotencyKey} />
          <AmountChoice
            legend={t("recharge.amount")}
            customLabel={t("recharge.custom")}
            presets={presets}
            choice={choice}
            custom={answer?.custom}
            min={min}
            max={max}
            describedBy="custom-hint"
            invalid={Boolean(amountError)}
          >
            <p id="custom-hint" className="muted">
              {t("recharge.custom_hint", { min, max })}
            </p>
            {amountError ? (
              <p className="form-error" role="alert">
                {amountError}
              </p>
            ) : null}
          </AmountChoice>
          <fieldset>
            <legend>{t("recharge.method")}</legend>
            <div className="amount-cards">
              {(["wechat", "alipay"] as const).map((value) => (
                <label key={value} className="amount-card amount-card-custom">
                  <input className="amount-card-input" type="radio" name="method" value={value} defaultChecked={method === value} />
                  {t(`recharge.${value}`)}
                </label>
              ))}
            </div>
          </fieldset>
          {fenPerSinecoin > 0 ? <p className="muted">{t("recharge.price_note", { price: (fenPerSinecoin / 100).toFixed(2) })}</p> : null}
          {answer?.error ? (
            <p className="form-error" role="alert">
              {answer.error}
            </p>
          ) : null}
          <p>
            <button type="submit" name="intent" value="topup" className="button button-primary">
              {t("recharge.submit")}
            </button>
          </p>
        </Form>
      </section>
    </WalletLayout>
  );
}
