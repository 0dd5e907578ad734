import { useFetcher } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import { localizePath, type Locale } from "../../common/locale.ts";
import "../lib/centre-catalog.ts";

export interface CheckinCardData {
  checkedInToday: boolean;
  consecutiveDays: number;
  totalDays: number;
  reward: number;
}

/** What the check-in action answers. */
export type CheckinAnswer = { checkin: { reward: number; gold: number } } | { checkin: { error: string } };

/**
 * The daily check-in: a plain form posting to /account/home (works without JavaScript); with it,
 * a fetcher posts in place and the card updates from the revalidated loader.
 */
export function CheckinCard({ status, csrfToken, answer }: { status: CheckinCardData; csrfToken: string; answer?: CheckinAnswer }) {
  const { t, i18n } = useTranslation("centre");
  const locale = i18n.language as Locale;
  const fetcher = useFetcher<CheckinAnswer>();
  const result = fetcher.data ?? answer;
  const busy = fetcher.state !== "idle";
  return (
    <section className="panel checkin-card" aria-labelledby="checkin-title" data-testid="checkin-card">
      <h2 id="checkin-title" className="page-title">
        {t("checkin.heading")}
      </h2>
      <dl className="checkin-days">
        <div>
          <dt>{t("checkin.consecutive")}</dt>
          <dd data-testid="checkin-consecutive">{t("checkin.days", { count: status.consecutiveDays })}</dd>
        </div>
        <div>
          <dt>{t("checkin.total")}</dt>
          <dd data-testid="checkin-total">{t("checkin.days", { count: status.totalDays })}</dd>
        </div>
      </dl>
      <fetcher.Form method="post" action={localizePath("/account/home", locale)}>
        <input type="hidden" name="csrftoken" value={csrfToken} />
        <input type="hidden" name="intent" value="checkin" />
        <button type="submit" className="button button-primary" disabled={status.checkedInToday || busy} data-testid="checkin-button">
          {status.checkedInToday ? t("checkin.done") : t("checkin.button")}
        </button>
      </fetcher.Form>
      <p className="muted">
        {status.checkedInToday ? t("checkin.reward_today", { reward: status.reward }) : t("checkin.reward_next", { reward: status.reward })}
      </p>
      <div role="status" aria-live="polite" data-testid="checkin-message">
        {result && "error" in result.checkin ? <p className="form-error">{result.checkin.error}</p> : null}
        {result && "reward" in result.checkin ? (
          <p className="form-success">{t("checkin.success", { reward: result.checkin.reward })}</p>
        ) : null}
      </div>
      <p className="muted checkin-rule">{t("checkin.rule")}</p>
    </section>
  );
}
