import { Form, Link } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import { formatDate, localizePath, type Locale } from "../../common/locale.ts";
import type { PresentedOwnedItem } from "../../features/shop/operations.ts";
import { ShopIcon } from "./shop-icons.tsx";
import "../lib/wallet-catalog.ts";

/** What the personal centre's shop forms answer. */
export interface OwnedItemsAnswer {
  shop: { error: string };
}

/**
 * The personal centre's items: badges and frames to wear or take off, make-up cards with the
 * form that uses one on a missed day, highlights and until when they last. Plain forms (no
 * JavaScript needed) posting to /account/home.
 */
export function OwnedItems({
  owned,
  missedDays,
  csrfToken,
  madeUp,
  answer,
}: {
  owned: PresentedOwnedItem[];
  missedDays: string[];
  csrfToken: string;
  madeUp: { day: string; days: number } | null;
  answer?: OwnedItemsAnswer | undefined;
}) {
  const { t, i18n } = useTranslation("wallet");
  const locale = i18n.language as Locale;
  const action = localizePath("/account/home", locale);
  const cards = owned.filter((item) => item.slot === "makeup_card" && !item.used).length;
  const usedCards = owned.filter((item) => item.slot === "makeup_card" && item.used);
  const others = owned.filter((item) => item.slot !== "makeup_card");
  const when = (iso: string) => formatDate(iso, locale, { dateStyle: "medium", timeStyle: "short" });
  const day = (value: string) => formatDate(`${value}T00:00:00+08:00`, locale);
  return (
    <section className="panel" aria-labelledby="owned-title" data-testid="owned-items">
      <h2 id="owned-title" className="page-title">
        {t("owned.title")}
      </h2>
      <p className="muted">
        {t("owned.intro")} <Link to={localizePath("/shop", locale)}>{t("owned.visit_shop")}</Link>
      </p>
      {madeUp ? (
        <p className="notice" role="status" data-testid="made-up-notice">
          {t("owned.made_up", { day: day(madeUp.day), days: madeUp.days })}
        </p>
      ) : null}
      {answer?.shop.error ? (
        <p className="form-error" role="alert">
          {answer.shop.error}
        </p>
      ) : null}
      {owned.length === 0 ? <p className="muted">{t("owned.empty")}</p> : null}
      <ul className="owned-items">
        {cards > 0 || usedCards.length > 0 ? (
          <li className="owned-item" data-testid="owned-makeup-cards">
            <ShopIcon item="makeup_card" size="32" />
            <div className="owned-item-text">
              <strong>{t("items.makeup_card.name")}</strong>{" "}
              <span data-testid="makeup-cards-left">{t("owned.cards_left", { count: cards })}</span>
              {usedCards.length > 0 ? (
                <span className="muted">
                  {" "}
                  · {usedCards.map((card) => t("owned.used_for", { day: day(card.used_for ?? "") })).join(" · ")}
                </span>
              ) : null}
            </div>
            {cards > 0 ? (
              missedDays.length > 0 ? (
                <Form method="post" action={action}>
                  <input type="hidden" name="csrftoken" value={csrfToken} />
                  <label>
                    {t("owned.day")}{" "}
                    <select name="date" required>
                      {missedDays.map((missed) => (
                        <option key={missed} value={missed}>
                          {day(missed)}
                        </option>
                      ))}
                    </select>
                  </label>
                  <button type="submit" name="intent" value="makeup" className="button button-primary">
                    {t("owned.use")}
                  </button>
                </Form>
              ) : (
                <span className="muted">{t("owned.no_missed")}</span>
              )
            ) : null}
          </li>
        ) : null}
        {others.map((item) => (
          <li key={item.id} className="owned-item" data-testid={`owned-${item.item}`}>
            <ShopIcon item={item.item} size="32" />
            <div className="owned-item-text">
              <strong>{t(`items.${item.item}.name`)}</strong>
              {item.worn ? <span className="role-badge">{t("owned.worn")}</span> : null}
              {item.highlight ? (
                <span className="muted">
                  {" "}
                  ·{" "}
                  {item.highlight.writing_id === null
                    ? t("owned.highlight_gone")
                    : t(item.highlight.active ? "owned.highlight_active" : "owned.highlight_over", {
                        title: item.highlight.title ?? "",
                        until: when(item.highlight.expires_at),
                      })}
                </span>
              ) : null}
            </div>
            {item.slot === "badge" || item.slot === "frame" ? (
              <Form method="post" action={action}>
                <input type="hidden" name="csrftoken" value={csrfToken} />
                <input type="hidden" name="owned_id" value={item.id} />
                <button type="submit" name="intent" value={item.worn ? "unwear" : "wear"} className="button">
                  {t(item.worn ? "owned.unwear" : "owned.wear")}
                </button>
              </Form>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
