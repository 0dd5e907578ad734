import { resolveRange, addDays } from "../../features/analysis/range.ts";
import { shanghaiDay } from "../../common/locale.ts";
import type { DayRange } from "../../features/metrics/rollups.ts";

/** The range an analysis page shows: `?days=7|30|90`, or `?from=&to=` (invalid ones answer 400), or the last 30 days. */
export function pageRange(params: URLSearchParams, now: Date): DayRange & { today: string } {
  const today = shanghaiDay(now);
  const days = Number(params.get("days"));
  if ([7, 30, 90].includes(days)) return { from: addDays(today, -(days - 1)), to: today, today };
  const range = resolveRange({ from: params.get("from") || undefined, to: params.get("to") || undefined }, now);
  return { ...range, today };
}
