import { and, asc, eq, gt, gte, lte } from "drizzle-orm";
import type { Database } from "../../server/db/client.ts";
import { checkins } from "../../server/db/schema/index.ts";
import { AppError } from "../../common/app-error.ts";
import { shanghaiDay } from "../../common/locale.ts";
import { inTransaction, type ServiceOptions } from "../../server/lib/transactions.ts";
import { userTag } from "../../server/lib/cache-tags.ts";
import { emit } from "../events/bus.ts";
import { consumeMakeupCard, makeupCardCount } from "../shop/service.ts";
import { makeupWindowDays } from "../shop/items.ts";
import { previousDay } from "./rules.ts";

/** The calendar day `days` after `day` (both YYYY-MM-DD; negative goes back). */
export function addDays(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** The days a make-up card may repair: from 30 days ago to yesterday (Asia/Shanghai). */
export function makeupWindow(now: Date): { first: string; last: string } {
  const today = shanghaiDay(now);
  return { first: addDays(today, -makeupWindowDays), last: previousDay(today) };
}

export interface MakeupResult {
  day: string;
  /** The running streak afterwards (what the check-in card shows). */
  consecutiveDays: number;
  /** Unused make-up cards left. */
  cardsLeft: number;
}

/**
 * Repairs a missed day with a make-up card (补签卡): the day's check-in row (no reward: the card
 * keeps the streak, it pays no gold, so the gold ledger has nothing to correct), the card marked
 * used, and the streak counts of the days after it recomputed, in one transaction. A day outside
 * the window (today, the future, more than 30 days ago) is
 * `makeup_day_out_of_range`; a day already checked in `makeup_day_not_missed`; no card left
 * `no_makeup_card`. The (user, day) key makes two repairs of one day use one card.
 */
export async function makeUpCheckin(options: ServiceOptions, userId: number, day: string, now: Date): Promise<MakeupResult> {
  const window = makeupWindow(now);
  if (day < window.first || day > window.last) throw new AppError("makeup_day_out_of_range", { params: { days: makeupWindowDays } });
  const today = shanghaiDay(now);
  return inTransaction(options, async (tx) => {
    const [before] = await tx.db
      .select({ consecutiveDays: checkins.consecutiveDays })
      .from(checkins)
      .where(and(eq(checkins.userId, userId), eq(checkins.day, previousDay(day))));
    let streak = (before?.consecutiveDays ?? 0) + 1;
    const [inserted] = await tx.db
      .insert(checkins)
      .values({ userId, day, consecutiveDays: streak, reward: 0, madeUp: true, createdAt: now })
      .onConflictDoNothing()
      .returning({ day: checkins.day });
    if (!inserted) throw new AppError("makeup_day_not_missed");
    const cardId = await consumeMakeupCard(tx, userId, day, now);
    // The days after it that follow on without a gap now continue the repaired streak.
    const later = await tx.db
      .select({ day: checkins.day, consecutiveDays: checkins.consecutiveDays })
      .from(checkins)
      .where(and(eq(checkins.userId, userId), gt(checkins.day, day), lte(checkins.day, today)))
      .orderBy(asc(checkins.day));
    let expected = addDays(day, 1);
    for (const row of later) {
      if (row.day !== expected) break;
      streak += 1;
      if (row.consecutiveDays !== streak)
        await tx.db
          .update(checkins)
          .set({ consecutiveDays: streak })
          .where(and(eq(checkins.userId, userId), eq(checkins.day, row.day)));
      expected = addDays(expected, 1);
    }
    // The streak runs on to today only if the chain reached yesterday or today.
    const consecutiveDays = expected === today || expected === addDays(today, 1) ? streak : 0;
    await emit(tx, { actorId: userId, verb: "user.checkin_made_up", subjectId: userId, data: { day, consecutiveDays: streak, cardId } });
    tx.invalidate(userTag(userId));
    return { day, consecutiveDays, cardsLeft: await makeupCardCount(tx.db, userId) };
  });
}

/** The missed days a card could repair now, the latest first (for the personal centre's form). */
export async function missedDays(db: Database, userId: number, now: Date): Promise<string[]> {
  const window = makeupWindow(now);
  const rows = await db
    .select({ day: checkins.day })
    .from(checkins)
    .where(and(eq(checkins.userId, userId), gte(checkins.day, window.first), lte(checkins.day, window.last)));
  const done = new Set(rows.map((row) => row.day));
  const days: string[] = [];
  for (let day = window.last; day >= window.first; day = previousDay(day)) if (!done.has(day)) days.push(day);
  return days;
}
