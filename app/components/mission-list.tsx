import { Form } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import { formatDate, type Locale } from "../../common/locale.ts";
import type { MissionAnswer } from "../../features/missions/operations.ts";
import { Amount } from "./coins.tsx";
import "../lib/missions-catalog.ts";

/**
 * Missions as rows: title, reward, a progress bar with its count, when the period ends, the state,
 * and Claim when the reward is waiting (a plain form: it works without JavaScript). Rows of
 * finished periods follow, while their reward is claimable or to say it expired.
 */
export function MissionList({ missions, csrfToken }: { missions: MissionAnswer[]; csrfToken: string }) {
  const { t, i18n } = useTranslation("missions");
  const locale = i18n.language as Locale;
  const when = (value: string) => formatDate(value, locale, { dateStyle: "medium", timeStyle: "short" });
  if (missions.length === 0) return <p className="muted">{t("empty")}</p>;
  const claimable = claimableRows(missions);
  return (
    <ul className="mission-list">
      {missions.map((mission) => (
        <li key={`${mission.id}-${mission.period_starts_at}`} className={`mission mission-${mission.status}`} data-mission={mission.key}>
          <div className="mission-head">
            <strong className="mission-title">{mission.title}</strong>
            <span className={`mission-status status-${mission.status}`}>{t(`status.${mission.status}`)}</span>
          </div>
          <p className="mission-reward">
            {t("reward")} <Amount value={mission.reward.amount} currency={mission.reward.currency} />
          </p>
          <p className="mission-progress">
            <span id={`progress-${mission.id}-${mission.current ? "now" : "before"}`}>{t("progress")}</span>{" "}
            <progress
              max={mission.target}
              value={mission.progress}
              aria-labelledby={`progress-${mission.id}-${mission.current ? "now" : "before"}`}
            />{" "}
            <span>{t("progress_value", { progress: mission.progress, target: mission.target })}</span>
          </p>
          <p className="muted mission-period">
            {mission.current
              ? t("period_ends", { time: when(mission.period_ends_at) })
              : t("finished_period", { time: when(mission.period_ends_at) })}
            {!mission.current && mission.status === "completed" && mission.claimable_until
              ? ` · ${t("claim_until", { time: when(mission.claimable_until) })}`
              : null}
          </p>
          {claimable.has(mission) ? (
            <Form method="post">
              <input type="hidden" name="csrftoken" value={csrfToken} />
              <input type="hidden" name="intent" value="claim" />
              <input type="hidden" name="mission_id" value={mission.id} />
              <button type="submit" className="button button-primary">
                {t("claim")}
              </button>
            </Form>
          ) : null}
        </li>
      ))}
    </ul>
  );
}

/** Claiming a mission pays its oldest completed period first, so only that row carries the button. */
function claimableRows(missions: MissionAnswer[]): Set<MissionAnswer> {
  const oldest = new Map<number, MissionAnswer>();
  for (const mission of missions) {
    if (mission.status !== "completed") continue;
    const seen = oldest.get(mission.id);
    if (!seen || mission.period_starts_at < seen.period_starts_at) oldest.set(mission.id, mission);
  }
  return new Set(oldest.values());
}
