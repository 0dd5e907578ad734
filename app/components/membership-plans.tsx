import { Form, Link } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import { formatDate, localizePath, type Locale } from "../../common/locale.ts";
import { Amount } from "./coins.tsx";
import type { membershipAnswer, presentPlan } from "../../features/monetization/membership-operations.ts";
import type { z } from "zod";
import "../lib/monetization-catalog.ts";

type Plan = ReturnType<typeof presentPlan>;
type Membership = z.infer<typeof membershipAnswer>;

export interface MembershipAnswer {
  intent: "membership" | "auto_renew";
  tier?: string;
  error?: string;
}

/**
 * The shop's memberships: each tier's benefits and its plans with a Buy form (a plain POST to
 * `/shop`, intent `membership`), the viewer's membership with its end and the automatic renewal
 * switch (intent `auto_renew`). Another tier than the one running cannot be bought.
 */
export function MembershipPlans(props: {
  plans: Plan[];
  membership: Membership | null;
  signedIn: boolean;
  sinecoin: number | null;
  csrfToken: string;
  idempotencyKey: string;
  answer: MembershipAnswer | undefined;
  bought: boolean;
}) {
  const { t, i18n } = useTranslation("monetization");
  const locale = i18n.language as Locale;
  const path = localizePath("/shop", locale);
  const { membership, answer } = props;
  const running = membership?.active ? membership : null;
  const date = (value: string) => formatDate(value, locale, { dateStyle: "long", timeStyle: "short" });
  return (
    <section className="panel" id="membership" aria-labelledby="membership-title" data-testid="memberships">
      <h2 id="membership-title" className="section-title">
        {t("membership.title")}
      </h2>
      <p className="muted">{t("membership.intro")}</p>
      {props.bought && running ? (
        <p className="notice" role="status" data-testid="membership-bought">
          {t("membership.bought", { tier: t(`membership.tier.${running.tier}`), date: date(running.ends_at) })}
        </p>
      ) : null}
      {membership ? (
        <div data-testid="membership-current">
          <p>
            {running
              ? t("membership.current", { tier: t(`membership.tier.${membership.tier}`), date: date(membership.ends_at) })
              : t("membership.ended", { tier: t(`membership.tier.${membership.tier}`), date: date(membership.ends_at) })}
          </p>
          {running ? (
            <Form method="post" action={path}>
              <input type="hidden" name="csrftoken" value={props.csrfToken} />
              <input type="hidden" name="auto_renew" value={running.auto_renew ? "false" : "true"} />
              <span>{running.auto_renew ? t("membership.auto_renew_on") : t("membership.auto_renew_off")}</span>{" "}
              <button type="submit" name="intent" value="auto_renew" className="button">
                {running.auto_renew ? t("membership.turn_off") : t("membership.turn_on")}
              </button>
            </Form>
          ) : null}
        </div>
      ) : null}
      {answer?.intent === "auto_renew" && answer.error ? (
        <p className="form-error" role="alert">
          {answer.error}
        </p>
      ) : null}
      <ul className="shop-items">
        {props.plans.map((plan) => {
          const tier = t(`membership.tier.${plan.tier}`);
          const otherTier = running !== null && running.tier !== plan.tier;
          const error = answer?.intent === "membership" && answer.tier === plan.tier ? answer.error : undefined;
          return (
            <li key={plan.tier} className="shop-item" data-testid={`membership-${plan.tier}`}>
              <div className="shop-item-head">
                <h3>{tier}</h3>
              </div>
              <ul>
                {plan.benefits.map((benefit) => (
                  <li key={benefit}>{t(`membership.benefit.${benefit}`, { tier })}</li>
                ))}
              </ul>
              {!props.signedIn ? (
                <p>
                  <Link className="button" to={`${localizePath("/login", locale)}?next=${encodeURIComponent(`${path}#membership`)}`}>
                    {t("wallet:shop.sign_in")}
                  </Link>
                </p>
              ) : otherTier ? (
                <p className="muted">{t("membership.other_tier", { tier: t(`membership.tier.${running.tier}`) })}</p>
              ) : (
                <Form method="post" action={path}>
                  <input type="hidden" name="csrftoken" value={props.csrfToken} />
                  <input type="hidden" name="idempotency_key" value={props.idempotencyKey} />
                  <input type="hidden" name="tier" value={plan.tier} />
                  <fieldset>
                    <legend>{t("membership.plan_legend")}</legend>
                    {plan.prices.map((price, index) => (
                      <label key={price.days} data-testid={`membership-${plan.tier}-${price.days}`}>
                        <input type="radio" name="days" value={price.days} defaultChecked={index === 0} />{" "}
                        {t("membership.plan", { days: price.days })} <Amount value={price.price} currency="sinecoin" />
                        {props.sinecoin !== null && props.sinecoin < price.price ? (
                          <span className="muted"> {t("wallet:shop.short")}</span>
                        ) : null}
                      </label>
                    ))}
                  </fieldset>
                  <label>
                    <input type="checkbox" name="auto_renew" value="true" defaultChecked={running?.auto_renew ?? false} />{" "}
                    {t("membership.auto_renew")}
                  </label>
                  {error ? (
                    <p className="form-error" role="alert">
                      {error}
                    </p>
                  ) : null}
                  <p>
                    <button type="submit" name="intent" value="membership" className="button button-primary">
                      {running ? t("membership.extend", { tier }) : t("membership.buy", { tier })}
                    </button>
                  </p>
                </Form>
              )}
            </li>
          );
        })}
      </ul>
      <p className="muted">{t("membership.expiry_note")}</p>
    </section>
  );
}
