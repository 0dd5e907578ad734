/*
 * Mission periods in Asia/Shanghai (UTC+8 all year, no daylight saving): a daily period starts at
 * midnight, a weekly one (weekly and creator missions) at Monday midnight.
 */
export type MissionScope = "daily" | "weekly" | "creator";

const hour = 3_600_000;
const day = 24 * hour;
const shanghaiOffset = 8 * hour;

/** How long the reward of a completed mission stays claimable after its period ends. */
export const claimWindowMs = 7 * day;

export interface MissionPeriod {
  start: Date;
  end: Date;
}

function periodLength(scope: MissionScope): number {
  return scope === "daily" ? day : 7 * day;
}

/** The period of `scope` that contains `at`. */
export function periodAt(scope: MissionScope, at: Date): MissionPeriod {
  const local = at.getTime() + shanghaiOffset;
  let start = Math.floor(local / day) * day;
  if (scope !== "daily") start -= ((new Date(start).getUTCDay() + 6) % 7) * day;
  start -= shanghaiOffset;
  return { start: new Date(start), end: new Date(start + periodLength(scope)) };
}

/** The period `count` periods before the one containing `at` (1: the one just finished). */
export function periodBefore(scope: MissionScope, at: Date, count = 1): MissionPeriod {
  const current = periodAt(scope, at);
  const shift = count * periodLength(scope);
  return { start: new Date(current.start.getTime() - shift), end: new Date(current.end.getTime() - shift) };
}

/** Finished periods whose rewards are still claimable at `now`, newest first. */
export function claimablePeriods(scope: MissionScope, now: Date): MissionPeriod[] {
  const periods: MissionPeriod[] = [];
  for (let count = 1; ; count++) {
    const period = periodBefore(scope, now, count);
    if (period.end.getTime() + claimWindowMs <= now.getTime()) return periods;
    periods.push(period);
  }
}
