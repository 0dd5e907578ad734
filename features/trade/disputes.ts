import { and, desc, eq, isNotNull, isNull, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Database } from "../../server/db/client.ts";
import { tradeMissions, tradeProgress, users } from "../../server/db/schema/index.ts";
import { AppError } from "../../common/app-error.ts";
import { inTransaction, type ServiceOptions } from "../../server/lib/transactions.ts";
import { emit } from "../events/bus.ts";
import { recordAudit, requireReason } from "../admin/audit.ts";
import type { Staff } from "../admin/staff.ts";
import { taskHold } from "./escrow.ts";
import { lockProgress, payReward } from "./service.ts";

/*
 * The dispute queue: a worker disputes a rejection (`trade.disputed`), a site moderator or admin
 * decides it, with a reason, audited. Upholding leaves the rejection as it is; overturning pays
 * the worker as if the poster had approved: from the task's hold while the slot the rejection
 * reopened is still untaken, otherwise from the poster's own sinecoin (409 `insufficient_balance`
 * when it does not cover the reward).
 */

export type DisputeDecision = "uphold" | "overturn";

const worker = alias(users, "worker");
const poster = alias(users, "poster");

export type DisputeRow = Awaited<ReturnType<typeof listDisputes>>[number];

/** Open disputes oldest first, or decided ones newest first (the last 100). */
export async function listDisputes(db: Database, state: "open" | "decided") {
  return db
    .select({
      id: tradeProgress.id,
      missionId: tradeProgress.missionId,
      title: tradeMissions.title,
      reward: tradeMissions.reward,
      workerId: tradeProgress.workerId,
      workerName: sql<string>`coalesce(nullif(${worker.nickname}, ''), ${worker.username})`,
      posterId: tradeMissions.posterId,
      posterName: sql<string>`coalesce(nullif(${poster.nickname}, ''), ${poster.username})`,
      content: tradeProgress.content,
      reason: tradeProgress.reason,
      status: tradeProgress.status,
      disputedAt: tradeProgress.disputedAt,
      decision: tradeProgress.disputeDecision,
      note: tradeProgress.disputeNote,
      decidedAt: tradeProgress.disputeDecidedAt,
    })
    .from(tradeProgress)
    .innerJoin(tradeMissions, eq(tradeMissions.id, tradeProgress.missionId))
    .innerJoin(worker, eq(worker.id, tradeProgress.workerId))
    .innerJoin(poster, eq(poster.id, tradeMissions.posterId))
    .where(
      and(
        isNotNull(tradeProgress.disputedAt),
        state === "open" ? isNull(tradeProgress.disputeDecision) : isNotNull(tradeProgress.disputeDecision),
      ),
    )
    .orderBy(state === "open" ? tradeProgress.disputedAt : desc(tradeProgress.disputeDecidedAt))
    .limit(100);
}

/** Decides one open dispute, once (a decided or undisputed record is 409 `trade_progress_closed`). */
export async function decideDispute(
  options: ServiceOptions,
  staff: Staff,
  address: string,
  progressId: number,
  decision: DisputeDecision,
  reason: string | undefined,
  now: Date,
): Promise<void> {
  const note = requireReason(reason);
  await inTransaction(options, async (tx) => {
    const { progress, task } = await lockProgress(tx, progressId);
    if (progress.status !== "rejected" || !progress.disputedAt || progress.disputeDecision) throw new AppError("trade_progress_closed");
    const outcome = decision === "overturn" ? "overturned" : "upheld";
    if (decision === "overturn") {
      // The rejection reopened its slot: while nobody has taken it, its reward is still in the hold.
      const held = task.openSlots > 0;
      if (held)
        await tx.db
          .update(tradeMissions)
          .set({ openSlots: task.openSlots - 1 })
          .where(eq(tradeMissions.id, task.id));
      await payReward(tx, task, progress, now, false, {
        moderatorId: staff.id,
        from: held ? taskHold(task.id) : { userId: task.posterId, currency: "sinecoin" },
      });
    }
    await tx.db
      .update(tradeProgress)
      .set({ disputeDecision: outcome, disputeNote: note, disputeDecidedAt: now, disputeDeciderId: staff.id })
      .where(eq(tradeProgress.id, progressId));
    await recordAudit(
      tx.db,
      { staff, address },
      {
        action: "trade.dispute_decided",
        target: `trade_progress:${progressId}`,
        before: { status: progress.status, reason: progress.reason },
        after: { decision: outcome },
        reason: note,
      },
    );
    await emit(tx, {
      verb: "trade.dispute_decided",
      actorId: staff.id,
      subjectId: progress.workerId,
      recipientIds: [progress.workerId, task.posterId],
      data: { missionId: task.id, progressId, decision: outcome, note },
    });
  });
}
