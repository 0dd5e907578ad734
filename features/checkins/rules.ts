/**
 * The daily check-in reward in gold: 10 on the first day of a streak, 2 more for each further
 * consecutive day, up to 20 from the sixth day on. A missed day starts the streak again.
 */
export const checkinReward = { base: 10, perStreakDay: 2, max: 20 } as const;

export function rewardForStreak(consecutiveDays: number): number {
  return Math.min(checkinReward.base + checkinReward.perStreakDay * Math.max(consecutiveDays - 1, 0), checkinReward.max);
}

/** The calendar day before `day` (both YYYY-MM-DD). */
export function previousDay(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() - 1);
  return date.toISOString().slice(0, 10);
}
