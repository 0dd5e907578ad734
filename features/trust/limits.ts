import { eq, sql, type SQL } from "drizzle-orm";
import type { Executor } from "../../server/db/client.ts";
import { users } from "../../server/db/schema/index.ts";
import { AppError } from "../../common/app-error.ts";
import { selectRows } from "./rows.ts";

/*
 * Limits that scale with trust (Discourse's trust levels as the model). An account's level comes
 * from its age and its standing (`intelligence_score`, features/trust/score.ts); each level allows
 * so many of each action per Beijing day. The limits are data: the table below, shown in the
 * message of 429 `daily_limit_reached` and on docs/features/trust.md.
 */

export const limitedActions = ["like", "follow", "tip", "chat", "report"] as const;
export type LimitedAction = (typeof limitedActions)[number];
export type TrustLevel = 0 | 1 | 2;

/** Per action, the daily allowance at trust level 0 (new), 1 (basic) and 2 (member). */
export const dailyLimits: Record<LimitedAction, readonly [number, number, number]> = {
  like: [100, 500, 2000],
  follow: [30, 150, 500],
  tip: [20, 200, 1000],
  chat: [50, 300, 2000],
  report: [10, 30, 100],
};

/** Level 1 from this age or this standing; level 2 needs both of its own. */
export const trustLevelRules = {
  basic: { ageDays: 7, score: 10 },
  member: { ageDays: 30, score: 50 },
} as const;

export function trustLevel(account: { createdAt: Date; intelligenceScore: number; siteRole: string }, now = new Date()): TrustLevel {
  if (account.siteRole !== "none") return 2;
  const ageDays = (now.getTime() - account.createdAt.getTime()) / 86_400_000;
  const { basic, member } = trustLevelRules;
  if (ageDays >= member.ageDays && account.intelligenceScore >= member.score) return 2;
  if (ageDays >= basic.ageDays || account.intelligenceScore >= basic.score) return 1;
  return 0;
}

/** The instant the current Beijing day began. */
function beijingMidnight(now: Date): Date {
  const shifted = new Date(now.getTime() + 8 * 3_600_000);
  shifted.setUTCHours(0, 0, 0, 0);
  return new Date(shifted.getTime() - 8 * 3_600_000);
}

const todayCount: Record<LimitedAction, (userId: number, since: string) => SQL> = {
  like: (userId, since) => sql`select count(*)::int as n from reactions where user_id = ${userId} and created_at >= ${since}`,
  follow: (userId, since) => sql`select count(*)::int as n from follows where follower_id = ${userId} and created_at >= ${since}`,
  tip: (userId, since) => sql`select count(*)::int as n from tips where tipper_id = ${userId} and created_at >= ${since}`,
  chat: (userId, since) => sql`select count(*)::int as n from chat_messages where sender_id = ${userId} and created_at >= ${since}`,
  report: (userId, since) => sql`select count(*)::int as n from reports where reporter_id = ${userId} and created_at >= ${since}`,
};

/**
 * Refuses the action with 429 `daily_limit_reached` (the message names the action, the limit and
 * the level) when the account has used up today's allowance of it. Call inside the action's
 * transaction, before writing it.
 */
export async function assertDailyAllowance(db: Executor, userId: number, action: LimitedAction, now = new Date()): Promise<void> {
  const [account] = await db
    .select({ createdAt: users.createdAt, intelligenceScore: users.intelligenceScore, siteRole: users.siteRole })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  if (!account) return;
  const level = trustLevel(account, now);
  const limit = dailyLimits[action][level];
  const [used] = await selectRows<{ n: number }>(db, todayCount[action](userId, beijingMidnight(now).toISOString()));
  if (Number(used?.n ?? 0) >= limit) {
    throw new AppError("daily_limit_reached", {
      params: { limit, level, context: action },
      details: { action, limit, trust_level: level },
    });
  }
}
