/**
 * `SETTLEMENT_DAYS` (7): how long income from others stays pending before it becomes available to
 * cash out, so a refund in that window takes it back before it was ever cashable.
 */
function days(): number {
  const text = process.env.SETTLEMENT_DAYS;
  if (text === undefined || text === "") return 7;
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < 0 || value > 365) throw new Error("SETTLEMENT_DAYS must be a whole number from 0 to 365");
  return value;
}

export const settlementSettings = { days: days() };

/** The moment before which income is settled, for a run at `now`. */
export function settlementCutoff(now: Date, windowDays = settlementSettings.days): Date {
  return new Date(now.getTime() - windowDays * 24 * 60 * 60 * 1000);
}
