import { useFetcher } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import { localizePath, type Locale } from "../../common/locale.ts";
import type { CheckinAnswer, CheckinCardData } from "./checkin-card.tsx";

/**
 * The home page's check-in: the personal centre's form (a plain POST to /account/home, in place
 * with JavaScript; the home loader then shows "Checked in"), with the home page's own short texts
 * so the first page load carries no personal-centre catalog.
 */
export function HomeCheckin({ status, csrfToken }: { status: CheckinCardData; csrfToken: string }) {
  const { t, i18n } = useTranslation("common");
  const locale = i18n.language as Locale;
  const fetcher = useFetcher<CheckinAnswer>();
  const result = fetcher.data;
  return (
    <section className="panel check-in-card" aria-labelledby="home-checkin-title">
      <h2 id="home-checkin-title" className="page-title">
        {t("home.checkin_title")}
      </h2>
      <p className="muted">{t("home.checkin_streak", { count: status.consecutiveDays })}</p>
      <fetcher.Form method="post" action={localizePath("/account/home", locale)}>
        <input type="hidden" name="csrftoken" value={csrfToken} />
        <input type="hidden" name="intent" value="checkin" />
        <button
          type="submit"
          className="button button-primary"
          disabled={status.checkedInToday || fetcher.state !== "idle"}
          data-testid="checkin-button"
        >
          {status.checkedInToday ? t("home.checkin_done") : t("home.checkin_button")}
        </button>
      </fetcher.Form>
      <div role="status" aria-live="polite">
        {result && "error" in result.checkin ? <p className="form-error">{result.checkin.error}</p> : null}
        {result && "reward" in result.checkin ? (
          <p className="form-success">{t("home.checkin_success", { reward: result.checkin.reward })}</p>
        ) : null}
      </div>
    </section>
  );
}
