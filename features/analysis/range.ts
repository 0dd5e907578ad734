import { z } from "zod";
import { AppError } from "../../common/app-error.ts";
import { shanghaiDay } from "../../common/locale.ts";
import type { DayRange } from "../metrics/rollups.ts";

/** The longest range the analysis answers at once (a leap year and a day). */
export const maxRangeDays = 367;
/** The range when none is asked: the last 30 Asia/Shanghai days, today included. */
export const defaultRangeDays = 30;

const dayPattern = /^\d{4}-\d{2}-\d{2}$/;

/** A day as `YYYY-MM-DD` that names a real calendar day, or undefined when left out. */
export const dayParam = z
  .string()
  .max(10)
  .optional()
  .transform((value) => (value === "" ? undefined : value));

function dayNumber(day: string): number | null {
  if (!dayPattern.test(day)) return null;
  const time = Date.parse(`${day}T00:00:00Z`);
  if (Number.isNaN(time) || new Date(time).toISOString().slice(0, 10) !== day) return null;
  return time / 86_400_000;
}

export function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/**
 * The range asked (`from`, `to` inclusive, Asia/Shanghai days; `to` defaults to today, `from` to 29 days before `to`);
 * `invalid_range` (400) when a day is malformed, `from` is after `to`, or it spans more than a year.
 */
export function resolveRange(query: { from?: string; to?: string }, now: Date): DayRange {
  const today = shanghaiDay(now);
  for (const day of [query.from, query.to]) if (day !== undefined && dayNumber(day) === null) throw new AppError("invalid_range");
  const to = query.to ?? today;
  const from = query.from ?? addDays(to, -(defaultRangeDays - 1));
  const first = dayNumber(from);
  const last = dayNumber(to);
  if (first === null || last === null || first > last || last - first + 1 > maxRangeDays) throw new AppError("invalid_range");
  return { from, to };
}

/** Every day of a range, in order (the charts and tables show days without anything as zeros). */
export function daysOf(range: DayRange): string[] {
  const days: string[] = [];
  for (let day = range.from; day <= range.to; day = addDays(day, 1)) days.push(day);
  return days;
}
