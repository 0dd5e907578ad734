import { data, Form, redirect } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import type { Route } from "./+types/wallet-accounts";
import { assertFormCsrf, getAppContext, readForm, requireViewer } from "../lib/context.server.ts";
import { movementPage, walletPageData } from "../lib/wallet-pages.server.ts";
import { dispatchIntent, formAction, type FormFailure } from "../../server/lib/operation.ts";
import { exchangeOperation, presentPayout, savePayoutAccountOperation } from "../../features/wallet/operations.ts";
import { getPayoutAccount } from "../../features/wallet/service.ts";
import { economySettings } from "../../features/wallet/settings.ts";
import { localizePath, pageUrl, type Locale } from "../../common/locale.ts";
import { pageMeta } from "../lib/meta.ts";
import { WalletLayout } from "../components/wallet-layout.tsx";
import { Amount } from "../components/coins.tsx";
import { MovementList } from "../components/movement-list.tsx";
import "../lib/wallet-catalog.ts";
import "../../common/i18n-forms.ts";
import walletStyles from "../styles/wallet.css?url";

export const meta: Route.MetaFunction = ({ location }) => pageMeta(location, "wallet:accounts.title");
export const links = () => [{ rel: "stylesheet", href: walletStyles }];
export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

/** `/wallet/accounts`: the gold account with its lines and the exchange for sinecoin; the payout account, masked. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const app = getAppContext(context);
  const viewer = requireViewer(app);
  const params = pageUrl(request.url).searchParams;
  const { lines } = await movementPage(app, { currency: "gold" }, 20);
  const payout = presentPayout(await getPayoutAccount(app.db, viewer.id));
  const exchanged = params.get("exchanged");
  const notice = params.get("notice") === "payout_saved" ? "payout_saved" : null;
  const exchangedGold = exchanged && /^\d{1,9}$/.test(exchanged) ? Number(exchanged) : null;
  return walletPageData(app, { lines, payout, rate: economySettings.goldPerSinecoin, exchangedGold, notice });
}

interface AccountsAnswer {
  form: "exchange" | "payout";
  error?: string;
  fieldErrors?: Record<string, string>;
  values?: Record<string, string>;
}

/** The exchange and the payout account as plain form posts (PRG); a refusal is said beside its form. */
export async function action({ context, request }: Route.ActionArgs) {
  const app = getAppContext(context);
  requireViewer(app);
  const form = await readForm(request);
  assertFormCsrf(app, form);
  const path = localizePath("/wallet/accounts", app.locale);
  const failedOn = (which: AccountsAnswer["form"], names: string[]) => (failure: FormFailure) =>
    data<AccountsAnswer>(
      {
        form: which,
        error: failure.formError,
        fieldErrors: failure.fieldErrors,
        values: Object.fromEntries(names.map((name) => [name, String(form.get(name) ?? "")])),
      },
      { status: failure.status },
    );
  const exchange = formAction(exchangeOperation, {
    done: (answer) => {
      throw redirect(`${path}?exchanged=${answer.exchanged_gold}`, 303);
    },
    failed: failedOn("exchange", ["gold"]),
  });
  const payout = formAction(savePayoutAccountOperation, {
    body: () => ({
      provider: String(form.get("provider") ?? "alipay"),
      account: String(form.get("account") ?? ""),
      real_name: String(form.get("real_name") ?? ""),
    }),
    done: () => {
      throw redirect(`${path}?notice=payout_saved`, 303);
    },
    failed: failedOn("payout", ["provider", "account", "real_name"]),
  });
  return dispatchIntent({ app, request, form, params: {} }, { exchange, payout });
}

export default function WalletAccounts({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("wallet");
  const locale = i18n.language as Locale;
  const { wallet, lines, payout, rate, exchangedGold, notice, csrfToken, idempotencyKey } = loaderData;
  const answer = actionData as AccountsAnswer | undefined;
  const path = localizePath("/wallet/accounts", locale);
  const exchangeAnswer = answer?.form === "exchange" ? answer : undefined;
  const payoutAnswer = answer?.form === "payout" ? answer : undefined;
  const fieldError = (which: AccountsAnswer | undefined, name: string) => which?.fieldErrors?.[name];
  return (
    <WalletLayout>
      <section className="panel" aria-labelledby="wallet-accounts-title">
        <h1 id="wallet-accounts-title" className="page-title">
          {t("accounts.title")}
        </h1>
        <h2 className="section-title">{t("accounts.gold_title")}</h2>
        <p data-testid="accounts-gold">
          <Amount value={wallet.gold} currency="gold" /> · <Amount value={wallet.sinecoin} currency="sinecoin" />
        </p>
        {exchangedGold !== null ? (
          <p className="notice" role="status">
            {t("accounts.exchanged", { gold: exchangedGold, coins: Math.floor(exchangedGold / rate) })}
          </p>
        ) : null}
        <h3 className="section-title">{t("accounts.exchange_title")}</h3>
        <p className="muted">{t("accounts.exchange_rate", { rate })}</p>
        <Form method="post" action={path} className="wallet-form" id="exchange-form">
          <input type="hidden" name="csrftoken" value={csrfToken} />
          <input type="hidden" name="idempotency_key" value={idempotencyKey} />
          <label>
            {t("accounts.exchange_amount")}
            <input
              type="number"
              name="gold"
              min={rate}
              step={rate}
              required
              defaultValue={exchangeAnswer?.values?.gold ?? rate}
              aria-invalid={fieldError(exchangeAnswer, "gold") ? true : undefined}
            />
          </label>
          {fieldError(exchangeAnswer, "gold") || exchangeAnswer?.error ? (
            <p className="form-error" role="alert">
              {fieldError(exchangeAnswer, "gold") ?? exchangeAnswer?.error}
            </p>
          ) : null}
          <p>
            <button type="submit" name="intent" value="exchange" className="button button-primary">
              {t("accounts.exchange_submit")}
            </button>
          </p>
        </Form>
        <h3 className="section-title">{t("accounts.gold_lines")}</h3>
        <MovementList lines={lines} />
        <h2 className="section-title">{t("accounts.payout_title")}</h2>
        <p className="muted">{t("accounts.payout_intro")}</p>
        {notice ? (
          <p className="notice" role="status">
            {t("accounts.payout_saved")}
          </p>
        ) : null}
        <p data-testid="payout-account">
          {payout
            ? t("accounts.payout_current", {
                provider: t(`accounts.provider_${payout.provider}`),
                account: payout.account,
                name: payout.real_name,
              })
            : t("accounts.payout_none")}
        </p>
        <Form method="post" action={path} className="wallet-form">
          <input type="hidden" name="csrftoken" value={csrfToken} />
          <fieldset className="payout-provider">
            <legend>{t("accounts.provider")}</legend>
            {(["alipay", "wechat"] as const).map((provider) => (
              <label key={provider}>
                <input
                  type="radio"
                  name="provider"
                  value={provider}
                  defaultChecked={(payoutAnswer?.values?.provider || payout?.provider || "alipay") === provider}
                />{" "}
                {t(`accounts.provider_${provider}`)}
              </label>
            ))}
          </fieldset>
          <label>
            {t("accounts.account")}
            <input name="account" required maxLength={256} autoComplete="off" defaultValue={payoutAnswer?.values?.account} />
          </label>
          <p className="muted">{t("accounts.account_hint")}</p>
          {fieldError(payoutAnswer, "account") ? (
            <p className="form-error" role="alert">
              {fieldError(payoutAnswer, "account")}
            </p>
          ) : null}
          <label>
            {t("accounts.real_name")}
            <input name="real_name" required maxLength={40} autoComplete="name" defaultValue={payoutAnswer?.values?.real_name} />
          </label>
          {fieldError(payoutAnswer, "real_name") || payoutAnswer?.error ? (
            <p className="form-error" role="alert">
              {fieldError(payoutAnswer, "real_name") ?? payoutAnswer?.error}
            </p>
          ) : null}
          <p>
            <button type="submit" name="intent" value="payout" className="button">
              {t("accounts.payout_save")}
            </button>
          </p>
        </Form>
      </section>
    </WalletLayout>
  );
}
