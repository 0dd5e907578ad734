import { and, count, desc, eq } from "drizzle-orm";
import type { Database } from "../../server/db/client.ts";
import { checkins, users } from "../../server/db/schema/index.ts";
import { AppError } from "../../common/app-error.ts";
import { shanghaiDay } from "../../common/locale.ts";
import { inTransaction, type ServiceOptions } from "../../server/lib/transactions.ts";
import { postLedgerTransaction } from "../ledger/service.ts";
import { previousDay, rewardForStreak } from "./rules.ts";
import { emit } from "../events/bus.ts";
import { userTag } from "../../server/lib/cache-tags.ts";

export interface CheckinStatus {
  /** Checked in on today's date in Asia/Shanghai. */
  checkedInToday: boolean;
  /** The running streak: counts today or yesterday's check-in; 0 once a day was missed. */
  consecutiveDays: number;
  totalDays: number;
  /** What checking in today gives (or gave). */
  reward: number;
}

export interface CheckinResult {
  consecutiveDays: number;
  totalDays: number;
  reward: number;
  /** The user's gold balance afterwards. */
  gold: number;
}

/** The system account the check-in rewards are paid from (double entry: it goes negative as gold is issued). */
export const checkinRewardsAccount = { system: "checkin_rewards", currency: "gold" } as const;

/**
 * Once per calendar day in Asia/Shanghai. The check-in row, the gold reward (a balanced ledger
 * transaction keyed `checkin:<user>:<day>`, with `users.gold` moved alongside) and the event
 * commit together. A second try the same day, even one racing this one, meets the (user, day)
 * key and gets `already_checked_in` (409).
 */
export async function checkIn(options: ServiceOptions, userId: number, now: Date = new Date()): Promise<CheckinResult> {
  const day = shanghaiDay(now);
  return inTransaction(options, async (tx) => {
    const [yesterday] = await tx.db
      .select({ consecutiveDays: checkins.consecutiveDays })
      .from(checkins)
      .where(and(eq(checkins.userId, userId), eq(checkins.day, previousDay(day))));
    const consecutiveDays = (yesterday?.consecutiveDays ?? 0) + 1;
    const reward = rewardForStreak(consecutiveDays);
    const [inserted] = await tx.db
      .insert(checkins)
      .values({ userId, day, consecutiveDays, reward, createdAt: now })
      .onConflictDoNothing()
      .returning({ day: checkins.day });
    if (!inserted) throw new AppError("already_checked_in");
    await postLedgerTransaction(tx, {
      idempotencyKey: `checkin:${userId}:${day}`,
      kind: "checkin_reward",
      data: { day, consecutiveDays },
      entries: [
        { account: { userId, currency: "gold" }, amount: reward },
        { account: checkinRewardsAccount, amount: -reward },
      ],
    });
    await emit(tx, {
      actorId: userId,
      verb: "user.checked_in",
      subjectId: userId,
      data: { day, consecutiveDays, reward },
    });
    const [totals] = await tx.db.select({ totalDays: count() }).from(checkins).where(eq(checkins.userId, userId));
    const [user] = await tx.db.select({ gold: users.gold }).from(users).where(eq(users.id, userId));
    tx.invalidate(userTag(userId));
    return { consecutiveDays, totalDays: totals?.totalDays ?? 1, reward, gold: user?.gold ?? 0 };
  });
}

export async function getCheckinStatus(db: Database, userId: number, now: Date = new Date()): Promise<CheckinStatus> {
  const today = shanghaiDay(now);
  const [[latest], [totals]] = await Promise.all([
    db
      .select({ day: checkins.day, consecutiveDays: checkins.consecutiveDays, reward: checkins.reward })
      .from(checkins)
      .where(eq(checkins.userId, userId))
      .orderBy(desc(checkins.day))
      .limit(1),
    db.select({ totalDays: count() }).from(checkins).where(eq(checkins.userId, userId)),
  ]);
  const checkedInToday = latest?.day === today;
  const streakAlive = latest !== undefined && (checkedInToday || latest.day === previousDay(today));
  const consecutiveDays = streakAlive ? latest.consecutiveDays : 0;
  return {
    checkedInToday,
    consecutiveDays,
    totalDays: totals?.totalDays ?? 0,
    reward: checkedInToday ? latest.reward : rewardForStreak(consecutiveDays + 1),
  };
}
