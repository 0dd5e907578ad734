import type { Database } from "../server/db/client.ts";
import { allDays, pruneEvents, rebuildRollups, rollupDifferences, type DayRange } from "../features/metrics/rollups.ts";

/** The metrics commands of `npm run admin` (rollup-check, rollup-rebuild, prune-events). */
export const metricsUsage = `       npm run admin -- rollup-check [--from YYYY-MM-DD --to YYYY-MM-DD]
       npm run admin -- rollup-rebuild [--from YYYY-MM-DD --to YYYY-MM-DD]
       npm run admin -- prune-events
  rollup-check: the daily rollups equal the raw records for every day of the range (exit 1 with the differences otherwise)
  rollup-rebuild: makes the range's daily rollups again from the raw records
  prune-events: deletes events older than the retention window that no page reads (in batches)`;

const dayPattern = /^\d{4}-\d{2}-\d{2}$/;

/** The range of `--from`/`--to` (each optional), or null when the arguments are not understood. */
export function parseRange(args: string[]): DayRange | null {
  const range = { ...allDays };
  for (let index = 0; index < args.length; index += 2) {
    const [flag, value] = [args[index], args[index + 1]];
    if (!value || !dayPattern.test(value) || Number.isNaN(Date.parse(value))) return null;
    if (flag === "--from") range.from = value;
    else if (flag === "--to") range.to = value;
    else return null;
  }
  return range.from <= range.to ? range : null;
}

export function isMetricsCommand(command: string | undefined): boolean {
  return command === "rollup-check" || command === "rollup-rebuild" || command === "prune-events";
}

/** Runs one metrics command; answers the exit code. */
export async function runMetricsCommand(db: Database, command: string, args: string[]): Promise<number> {
  if (command === "prune-events") {
    if (args.length > 0) return 2;
    const { deleted } = await pruneEvents(db);
    console.log(`${deleted} events pruned`);
    return 0;
  }
  const range = parseRange(args);
  if (!range) return 2;
  if (command === "rollup-rebuild") {
    const { rows } = await rebuildRollups(db, range);
    console.log(`${rows} rollup rows rebuilt from ${range.from} to ${range.to}`);
    return 0;
  }
  const differences = await rollupDifferences(db, range);
  for (const difference of differences) {
    console.error(
      `${difference.day} ${difference.subjectType} ${difference.subjectId} ${difference.figure}: rollup ${difference.rollup}, raw ${difference.raw}`,
    );
  }
  console.log(differences.length === 0 ? `rollups equal raw from ${range.from} to ${range.to}` : `${differences.length} differences`);
  return differences.length === 0 ? 0 : 1;
}
