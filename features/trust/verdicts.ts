import { sql, type SQL } from "drizzle-orm";
import type { Executor } from "../../server/db/client.ts";
import { trustVerdicts } from "../../server/db/schema/index.ts";
import { shanghaiDay } from "../../common/locale.ts";
import { linkedSql } from "./linked.ts";
import { selectRows } from "./rows.ts";

/*
 * The verdict on each counted action: a like, follow or tip is counted unless it is by oneself
 * (`self`), between linked accounts (`linked`: features/trust/linked.ts) or part of a burst
 * (`burst`: more than `burstLimit` of the same action by one account within a minute). What is
 * not counted is kept in `trust_verdicts` with its reason code, in the action's own transaction;
 * the standing score and the ring job leave those actions out. Views keep theirs (`bot`,
 * `repeat`) in the daily rollups' filtered counts (docs/features/metrics.md).
 */

export const verdictReasons = ["bot", "repeat", "self", "linked", "burst"] as const;
export type VerdictReason = (typeof verdictReasons)[number];
export type JudgedAction = "like" | "follow" | "tip";

/** More than this many of one action by one account within `burstSeconds` is a burst. */
export const burstLimit = 10;
export const burstSeconds = 60;

export interface ActionToJudge {
  action: JudgedAction;
  actorId: number;
  /** Who the action is for (the content's author, the followed user); null when the subject has none. */
  receiverId: number | null;
  subjectType: string;
  subjectId: number;
}

const recentCount = {
  like: (actorId: number, since: Date) =>
    sql`select count(*)::int as n from reactions where user_id = ${actorId} and kind = 'like' and created_at > ${since.toISOString()}`,
  follow: (actorId: number, since: Date) =>
    sql`select count(*)::int as n from follows where follower_id = ${actorId} and created_at > ${since.toISOString()}`,
  tip: (actorId: number, since: Date) =>
    sql`select count(*)::int as n from tips where tipper_id = ${actorId} and created_at > ${since.toISOString()}`,
} satisfies Record<JudgedAction, (actorId: number, since: Date) => SQL>;

/**
 * Judges an action that has just been written (in its transaction, so a burst counts it): returns
 * null when it counts, else the reason, which is recorded in `trust_verdicts`.
 */
export async function judgeAction(db: Executor, action: ActionToJudge, now = new Date()): Promise<VerdictReason | null> {
  const reason = await reasonFor(db, action, now);
  if (reason) {
    await db.insert(trustVerdicts).values({
      action: action.action,
      actorId: action.actorId,
      receiverId: action.receiverId,
      subjectType: action.subjectType,
      subjectId: action.subjectId,
      reason,
      day: shanghaiDay(now),
    });
  }
  return reason;
}

async function reasonFor(db: Executor, action: ActionToJudge, now: Date): Promise<VerdictReason | null> {
  if (action.receiverId !== null && action.receiverId === action.actorId) return "self";
  if (action.receiverId !== null) {
    const [linked] = await selectRows<{ linked: boolean }>(
      db,
      sql`select ${linkedSql(sql`${action.actorId}::int`, sql`${action.receiverId}::int`)} as linked`,
    );
    if (linked?.linked) return "linked";
  }
  const since = new Date(now.getTime() - burstSeconds * 1000);
  const [recent] = await selectRows<{ n: number }>(db, recentCount[action.action](action.actorId, since));
  if (Number(recent?.n ?? 0) > burstLimit) return "burst";
  return null;
}

/** The uncounted actions of a day (Asia/Shanghai) by action and reason, what the fraud figures show. */
export async function verdictCounts(db: Executor, day: string): Promise<{ action: string; reason: VerdictReason; count: number }[]> {
  return selectRows(
    db,
    sql`select action, reason, count(*)::int as count from trust_verdicts where day = ${day} group by action, reason order by action, reason`,
  );
}
