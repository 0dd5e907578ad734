import { and, asc, eq, gt, gte, inArray, lte, sql } from "drizzle-orm";
import type { Database, Executor } from "../../server/db/client.ts";
import { missionGrants, missions, users } from "../../server/db/schema/index.ts";
import { AppError } from "../../common/app-error.ts";
import { inTransaction, type ServiceOptions, type Transaction } from "../../server/lib/transactions.ts";
import { userTag } from "../../server/lib/cache-tags.ts";
import type { Viewer } from "../accounts/viewer.ts";
import { can as canAccount } from "../accounts/policy.ts";
import { postLedgerTransaction } from "../ledger/service.ts";
import { emit } from "../events/bus.ts";
import { measureProgress, type MissionMetric } from "./metrics.ts";
import { claimablePeriods, claimWindowMs, periodAt, type MissionPeriod, type MissionScope } from "./periods.ts";

export type MissionRow = typeof missions.$inferSelect;
export type MissionStatus = "open" | "completed" | "claimed" | "expired";

/** One mission as a user sees it in one period: the current one, or a finished one still shown. */
export interface MissionView {
  mission: MissionRow;
  period: MissionPeriod;
  progress: number;
  status: MissionStatus;
  claimableUntil: Date | null;
  current: boolean;
}

/** Where mission rewards come from (double entry: it goes negative as rewards are issued). */
export const missionRewardsAccount = (currency: "gold" | "sinecoin") => ({ system: "mission_rewards", currency }) as const;

/** Creator missions are for monetization participants (any user type but "Registered users"). */
function mayTake(viewer: Viewer, scope: MissionScope): boolean {
  return scope !== "creator" || canAccount(viewer, "enter_monetization_home");
}

async function activeMissions(db: Executor, scope: MissionScope): Promise<MissionRow[]> {
  return db
    .select()
    .from(missions)
    .where(and(eq(missions.scope, scope), eq(missions.active, true)))
    .orderBy(asc(missions.position), asc(missions.id));
}

async function progressFor(db: Executor, mission: MissionRow, period: MissionPeriod, userId: number, now: Date): Promise<number> {
  const progress = await measureProgress(db, mission.metric as MissionMetric, period, userId, now);
  return progress.get(userId) ?? 0;
}

/**
 * The viewer's missions of a scope: each of the current period with its live progress, then the
 * completed or expired ones of finished periods (claimable for 7 days after their period).
 */
export async function listMissions(db: Database, viewer: Viewer, scope: MissionScope, now: Date): Promise<MissionView[]> {
  if (!mayTake(viewer, scope)) throw new AppError("forbidden");
  const rows = await activeMissions(db, scope);
  if (rows.length === 0) return [];
  const current = periodAt(scope, now);
  const grants = await db
    .select()
    .from(missionGrants)
    .where(
      and(
        eq(missionGrants.userId, viewer.id),
        inArray(
          missionGrants.missionId,
          rows.map((row) => row.id),
        ),
        gte(missionGrants.periodEnd, new Date(now.getTime() - 2 * claimWindowMs)),
      ),
    )
    .orderBy(asc(missionGrants.periodStart));
  const views: MissionView[] = [];
  for (const mission of rows) {
    const grant = grants.find((row) => row.missionId === mission.id && row.periodStart.getTime() === current.start.getTime());
    const progress = grant?.progress ?? (await progressFor(db, mission, current, viewer.id, now));
    views.push({
      mission,
      period: current,
      progress: Math.min(progress, mission.target),
      status: grant?.status === "claimed" ? "claimed" : progress >= mission.target ? "completed" : "open",
      claimableUntil: new Date(current.end.getTime() + claimWindowMs),
      current: true,
    });
  }
  for (const grant of grants) {
    if (grant.periodStart.getTime() >= current.start.getTime() || grant.status === "claimed") continue;
    const mission = rows.find((row) => row.id === grant.missionId)!;
    const expired = grant.status === "expired" || grant.claimableUntil <= now;
    views.push({
      mission,
      period: { start: grant.periodStart, end: grant.periodEnd },
      progress: Math.min(grant.progress, mission.target),
      status: expired ? "expired" : "completed",
      claimableUntil: grant.claimableUntil,
      current: false,
    });
  }
  return views;
}

/** Pays a grant's reward through the ledger with its event, once per (mission, user, period). */
async function payGrant(tx: Transaction, mission: MissionRow, userId: number, period: MissionPeriod): Promise<void> {
  const periodStart = period.start.toISOString();
  const currency = mission.rewardCurrency;
  await postLedgerTransaction(tx, {
    idempotencyKey: `mission:${mission.id}:${userId}:${periodStart}`,
    kind: currency === "sinecoin" ? "mission_income" : "mission_reward",
    data: { missionId: mission.id, key: mission.key, periodStart },
    entries: [
      { account: { userId, currency }, amount: mission.rewardAmount },
      { account: missionRewardsAccount(currency), amount: -mission.rewardAmount },
    ],
  });
  await emit(tx, {
    verb: "mission.claimed",
    actorId: userId,
    subjectId: userId,
    data: { missionId: mission.id, key: mission.key, periodStart, currency, amount: mission.rewardAmount },
  });
  tx.invalidate(userTag(userId));
}

/**
 * Claims a mission's reward: the oldest completed, unclaimed period still claimable (a grant the
 * period job recorded, a finished period not recorded yet, or the current one), measured on the
 * server. The user's row is locked first, so concurrent claims take turns and the second finds
 * the grant claimed (409 `already_claimed`); nothing completed is 409 `not_completed`.
 */
export async function claimMission(
  options: ServiceOptions,
  viewer: Viewer,
  missionId: number,
  now: Date,
): Promise<{ currency: "gold" | "sinecoin"; amount: number }> {
  return inTransaction(options, async (tx) => {
    const [mission] = await tx.db
      .select()
      .from(missions)
      .where(and(eq(missions.id, missionId), eq(missions.active, true)));
    if (!mission) throw new AppError("not_found");
    const scope = mission.scope;
    if (!mayTake(viewer, scope)) throw new AppError("forbidden");
    await tx.db.select({ id: users.id }).from(users).where(eq(users.id, viewer.id)).for("update");
    const reward = { currency: mission.rewardCurrency, amount: mission.rewardAmount };

    const [recorded] = await tx.db
      .select()
      .from(missionGrants)
      .where(
        and(
          eq(missionGrants.missionId, mission.id),
          eq(missionGrants.userId, viewer.id),
          eq(missionGrants.status, "completed"),
          gt(missionGrants.claimableUntil, now),
        ),
      )
      .orderBy(asc(missionGrants.periodStart))
      .limit(1);
    if (recorded) {
      await tx.db.update(missionGrants).set({ status: "claimed", claimedAt: now }).where(eq(missionGrants.id, recorded.id));
      await payGrant(tx, mission, viewer.id, { start: recorded.periodStart, end: recorded.periodEnd });
      return reward;
    }

    let claimedBefore = false;
    for (const period of [...claimablePeriods(scope, now).reverse(), periodAt(scope, now)]) {
      const [existing] = await tx.db
        .select({ status: missionGrants.status })
        .from(missionGrants)
        .where(
          and(eq(missionGrants.missionId, mission.id), eq(missionGrants.userId, viewer.id), eq(missionGrants.periodStart, period.start)),
        );
      const isCurrent = period.end > now;
      if (existing) {
        // "Already claimed" speaks of the current period; an older claimed one leaves it "not completed".
        claimedBefore ||= isCurrent && existing.status === "claimed";
        continue;
      }
      // Finished periods the job has not recorded are measured only for the last one (the job's gap).
      const isLastFinished = !isCurrent && period.end.getTime() === periodAt(scope, now).start.getTime();
      if (!isCurrent && !isLastFinished) continue;
      const progress = await progressFor(tx.db, mission, period, viewer.id, now);
      if (progress < mission.target) continue;
      const [inserted] = await tx.db
        .insert(missionGrants)
        .values({
          missionId: mission.id,
          userId: viewer.id,
          periodStart: period.start,
          periodEnd: period.end,
          progress,
          status: "claimed",
          claimableUntil: new Date(period.end.getTime() + claimWindowMs),
          claimedAt: now,
        })
        .onConflictDoNothing()
        .returning({ id: missionGrants.id });
      if (!inserted) {
        claimedBefore ||= isCurrent;
        continue;
      }
      await payGrant(tx, mission, viewer.id, period);
      return reward;
    }
    throw new AppError(claimedBefore ? "already_claimed" : "not_completed");
  });
}

/**
 * The period reset (the `mission-periods` job, at Asia/Shanghai midnight; Monday's run also ends
 * the week): every finished period still claimable gets a grant for each user who completed a
 * mission in it and has not claimed it, and grants past their 7 days expire. Inserts meet the
 * (mission, user, period) key and updates take only `completed` rows, so a repeated run changes
 * nothing. Answers how many grants it recorded and expired.
 */
export async function closeMissionPeriods(db: Database, now: Date): Promise<{ recorded: number; expired: number }> {
  let recorded = 0;
  for (const scope of ["daily", "weekly", "creator"] as const) {
    const rows = await activeMissions(db, scope);
    for (const period of claimablePeriods(scope, now)) {
      for (const mission of rows) {
        const progress = await measureProgress(db, mission.metric as MissionMetric, period, null, now);
        const completed = [...progress].filter(([, value]) => value >= mission.target);
        if (completed.length === 0) continue;
        const participants =
          scope === "creator"
            ? new Set(
                (
                  await db
                    .select({ id: users.id })
                    .from(users)
                    .where(
                      and(
                        inArray(
                          users.id,
                          completed.map(([userId]) => userId),
                        ),
                        sql`${users.userType} <> 'Registered users'`,
                      ),
                    )
                ).map((row) => row.id),
              )
            : null;
        const values = completed
          .filter(([userId]) => !participants || participants.has(userId))
          .map(([userId, value]) => ({
            missionId: mission.id,
            userId,
            periodStart: period.start,
            periodEnd: period.end,
            progress: value,
            status: "completed" as const,
            claimableUntil: new Date(period.end.getTime() + claimWindowMs),
          }));
        if (values.length === 0) continue;
        const inserted = await db.insert(missionGrants).values(values).onConflictDoNothing().returning({ id: missionGrants.id });
        recorded += inserted.length;
      }
    }
  }
  const expired = await db
    .update(missionGrants)
    .set({ status: "expired" })
    .where(and(eq(missionGrants.status, "completed"), lte(missionGrants.claimableUntil, now)))
    .returning({ id: missionGrants.id });
  return { recorded, expired: expired.length };
}
