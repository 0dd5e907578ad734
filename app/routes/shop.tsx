import { data, Form, Link, redirect } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import type { Route } from "./+types/shop";
import { assertFormCsrf, getAppContext, readForm, requireViewer } from "../lib/context.server.ts";
import { shopPageData } from "../lib/shop-pages.server.ts";
import { dispatchIntent, formAction, type FormFailure } from "../../server/lib/operation.ts";
import { purchaseOperation } from "../../features/shop/operations.ts";
import { buyMembershipOperation, membershipAutoRenewOperation } from "../../features/monetization/membership-operations.ts";
import { MembershipPlans, type MembershipAnswer } from "../components/membership-plans.tsx";
import { shopItemCodes } from "../../features/shop/items.ts";
import { localizePath, pageUrl, type Locale } from "../../common/locale.ts";
import { pageMeta } from "../lib/meta.ts";
import { WalletLayout } from "../components/wallet-layout.tsx";
import { Amount } from "../components/coins.tsx";
import { ShopIcon } from "../components/shop-icons.tsx";
import "../lib/wallet-catalog.ts";
import "../../common/i18n-forms.ts";
import walletStyles from "../styles/wallet.css?url";

export const meta: Route.MetaFunction = ({ location }) => pageMeta(location, "wallet:shop.title");
export const links = () => [{ rel: "stylesheet", href: walletStyles }];
export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

/**
 * `/shop`: the items with their icons, prices and Buy forms, and the VIP and SVIP membership plans
 * (visitors see them and are asked to sign in).
 */
export async function loader({ context, request }: Route.LoaderArgs) {
  const app = getAppContext(context);
  const query = pageUrl(request.url).searchParams;
  const bought = query.get("bought");
  return shopPageData(app, {
    bought: bought && (shopItemCodes as string[]).includes(bought) ? bought : null,
    member: query.get("member") === "1",
  });
}

interface ShopAnswer {
  item: string;
  error?: string;
  fieldErrors?: Record<string, string>;
}

/** A purchase as a plain form post (PRG to `?bought=`); a refusal is said under that item. */
export async function action({ context, request }: Route.ActionArgs) {
  const app = getAppContext(context);
  requireViewer(app);
  const form = await readForm(request);
  assertFormCsrf(app, form);
  const item = String(form.get("item") ?? "");
  const writing = String(form.get("writing_id") ?? "");
  const buy = formAction(purchaseOperation, {
    body: () => ({
      item,
      currency: String(form.get("currency") ?? ""),
      ...(item === "highlight_24h" ? { writing_id: /^\d{1,10}$/.test(writing) ? Number(writing) : writing || undefined } : {}),
    }),
    done: (answer) => {
      throw redirect(`${localizePath("/shop", app.locale)}?bought=${answer.item}`, 303);
    },
    failed: (failure: FormFailure) =>
      data<ShopAnswer>({ item, error: failure.formError, fieldErrors: failure.fieldErrors }, { status: failure.status }),
  });
  const shopPath = localizePath("/shop", app.locale);
  const membership = formAction(buyMembershipOperation, {
    done: () => {
      throw redirect(`${shopPath}?member=1#membership`, 303);
    },
    failed: (failure: FormFailure) =>
      data<MembershipAnswer>(
        {
          intent: "membership",
          tier: String(form.get("tier") ?? ""),
          error: Object.values(failure.fieldErrors ?? {})[0] ?? failure.formError,
        },
        { status: failure.status },
      ),
  });
  const autoRenew = formAction(membershipAutoRenewOperation, {
    done: () => {
      throw redirect(`${shopPath}#membership`, 303);
    },
    failed: (failure: FormFailure) =>
      data<MembershipAnswer>({ intent: "auto_renew", error: failure.formError }, { status: failure.status }),
  });
  return dispatchIntent({ app, request, form, params: {} }, { buy, membership, auto_renew: autoRenew });
}

const currencies = ["gold", "sinecoin"] as const;

export default function Shop({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("wallet");
  const locale = i18n.language as Locale;
  const { items, plans, membership, notice, signedIn, wallet, owned, writings, csrfToken, idempotencyKey } = loaderData;
  const answer = actionData && "item" in actionData ? (actionData as ShopAnswer) : undefined;
  const memberAnswer = actionData && "intent" in actionData ? (actionData as MembershipAnswer) : undefined;
  const path = localizePath("/shop", locale);
  // The payment preselected: the first currency the balance covers (gold first), so a click never meets "余额不足" when one would do.
  const payableWith = (price: Record<(typeof currencies)[number], number>) =>
    currencies.find((currency) => wallet === null || wallet[currency] >= price[currency]) ?? "gold";
  return (
    <WalletLayout>
      <section className="panel" aria-labelledby="shop-title">
        <h1 id="shop-title" className="page-title">
          {t("shop.title")}
        </h1>
        <p className="muted">{t("shop.intro")}</p>
        {wallet ? (
          <p data-testid="shop-balance">
            {t("shop.balance")} <Amount value={wallet.gold} currency="gold" /> · <Amount value={wallet.sinecoin} currency="sinecoin" />
          </p>
        ) : null}
        {notice.bought ? (
          <p className="notice" role="status" data-testid="shop-notice">
            {t("shop.bought", { item: t(`items.${notice.bought}.name`) })}{" "}
            <Link to={localizePath("/account/home", locale)}>{t("shop.see_owned")}</Link>
          </p>
        ) : null}
        <ul className="shop-items">
          {items.map((item) => {
            const itemAnswer = answer?.item === item.item ? answer : undefined;
            const error = itemAnswer ? (Object.values(itemAnswer.fieldErrors ?? {})[0] ?? itemAnswer.error) : undefined;
            const alreadyOwned = item.once && owned.includes(item.item);
            const needsWriting = item.slot === "highlight";
            return (
              <li key={item.item} className="shop-item" data-testid={`shop-item-${item.item}`}>
                <div className="shop-item-head">
                  <ShopIcon item={item.item} />
                  <h2>{t(`items.${item.item}.name`)}</h2>
                </div>
                <p className="muted">{t(`items.${item.item}.description`)}</p>
                <p className="shop-item-prices">
                  <Amount value={item.price.gold} currency="gold" />
                  <Amount value={item.price.sinecoin} currency="sinecoin" />
                </p>
                {!signedIn ? (
                  <p>
                    <Link className="button" to={`${localizePath("/login", locale)}?next=${encodeURIComponent(path)}`}>
                      {t("shop.sign_in")}
                    </Link>
                  </p>
                ) : alreadyOwned ? (
                  <p className="role-badge">{t("shop.owned")}</p>
                ) : needsWriting && writings.length === 0 ? (
                  <p className="muted">{t("shop.no_writings")}</p>
                ) : (
                  <Form method="post" action={path}>
                    <input type="hidden" name="csrftoken" value={csrfToken} />
                    <input type="hidden" name="idempotency_key" value={idempotencyKey} />
                    <input type="hidden" name="item" value={item.item} />
                    {needsWriting ? (
                      <label>
                        {t("shop.writing")}
                        <select name="writing_id" required>
                          {writings.map((writing) => (
                            <option key={writing.id} value={writing.id}>
                              {writing.title}
                            </option>
                          ))}
                        </select>
                      </label>
                    ) : null}
                    <fieldset>
                      <legend>{t("shop.pay_with")}</legend>
                      {currencies.map((currency) => {
                        const short = wallet !== null && wallet[currency] < item.price[currency];
                        return (
                          <label key={currency} data-testid={`pay-${currency}`}>
                            <input type="radio" name="currency" value={currency} defaultChecked={currency === payableWith(item.price)} />{" "}
                            {t(`currency.${currency}`)} <Amount value={item.price[currency]} currency={currency} />
                            {short ? <span className="muted"> {t("shop.short")}</span> : null}
                          </label>
                        );
                      })}
                    </fieldset>
                    {error ? (
                      <p className="form-error" role="alert">
                        {error}
                      </p>
                    ) : null}
                    <p>
                      <button type="submit" name="intent" value="buy" className="button button-primary">
                        {t("shop.buy")}
                      </button>
                    </p>
                  </Form>
                )}
              </li>
            );
          })}
        </ul>
      </section>
      <MembershipPlans
        plans={plans}
        membership={membership}
        signedIn={signedIn}
        sinecoin={wallet?.sinecoin ?? null}
        csrfToken={csrfToken}
        idempotencyKey={idempotencyKey}
        answer={memberAnswer}
        bought={notice.member}
      />
    </WalletLayout>
  );
}
