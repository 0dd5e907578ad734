import { defineJob } from "../jobs/registry.ts";
import { lastDays, pruneEvents, rollupDifferences, type RollupDifference } from "./rollups.ts";

/**
 * The metrics' scheduled work (docs/features/metrics.md, "Daily rollups"). Cron times are UTC:
 * 19:15 and 19:30 UTC are 03:15 and 03:30 in Asia/Shanghai, after the day the check covers ended.
 */

/** How many days back the daily check compares (yesterday and today, Asia/Shanghai). */
export const rollupCheckDays = 2;

/** How many differences a run's summary lists (the rest are counted). */
const listedDifferences = 50;

export function describeDifference(difference: RollupDifference): string {
  return `${difference.day} ${difference.subjectType} ${difference.subjectId} ${difference.figure}: rollup ${difference.rollup}, raw ${difference.raw}`;
}

/**
 * Every day: the rollups of the last days against the raw records (`rollupDifferences`). Equal,
 * the run completes saying so; any difference fails the run (no retry: a second look at the same
 * records finds the same) with the differences in its summary, so `npm run admin -- jobs` and the
 * admin area list it among the failures. Repair stays a decision: `npm run admin -- rollup-rebuild`.
 */
export const rollupCheckJob = defineJob({
  name: "rollup-check",
  schedule: "15 19 * * *",
  retry: { limit: 0 },
  async run({ db, now, report }) {
    const range = lastDays(rollupCheckDays, now);
    const differences = await rollupDifferences(db, range);
    if (differences.length === 0) {
      report(`rollups equal raw from ${range.from} to ${range.to}`);
      return;
    }
    const listed = differences.slice(0, listedDifferences).map(describeDifference);
    if (differences.length > listedDifferences) listed.push(`… and ${differences.length - listedDifferences} more`);
    report([`${differences.length} differences from ${range.from} to ${range.to}:`, ...listed].join("\n"));
    throw new Error(`rollups differ from the raw records in ${differences.length} figures from ${range.from} to ${range.to}`);
  },
});

/** Every day: events past the retention window that no page reads go, in batches (`pruneEvents`). */
export const pruneEventsJob = defineJob({
  name: "prune-events",
  schedule: "30 19 * * *",
  retry: { limit: 2, delaySeconds: 300, backoff: true },
  async run({ db, now, report }) {
    const { deleted } = await pruneEvents(db, { now });
    report(`${deleted} events pruned`);
  },
});
