import { and, eq, lte } from "drizzle-orm";
import type { Database } from "../../server/db/client.ts";
import { tradeMissions, tradeProgress } from "../../server/db/schema/index.ts";
import { inTransaction, type Transaction } from "../../server/lib/transactions.ts";
import { userTag } from "../../server/lib/cache-tags.ts";
import { postLedgerTransaction } from "../ledger/service.ts";
import { emit } from "../events/bus.ts";
import { payReward } from "./service.ts";

/** Where a task's reward waits: its own system account, whose balance is what is still owed on it. */
export const taskHold = (id: number) => ({ system: `trade_mission:${id}`, currency: "sinecoin" as const });
export const taskPath = (id: number) => `/trade/missions/${id}`;

/** A submission not reviewed within this long is approved by the job. */
export const autoApproveAfterMs = 72 * 3_600_000;

type TaskRow = typeof tradeMissions.$inferSelect;

/**
 * Pays a locked task's open (untaken) slots back to its poster and sets them to 0, in the caller's
 * transaction. A task closes once (cancelled or at its deadline: one key), and a slot rejected after
 * it closed is refunded under its progress id: each refund moves once.
 */
export async function refundOpenSlots(
  tx: Transaction,
  task: TaskRow,
  reason: "cancelled" | "deadline" | "rejected_after_close",
  rejectedProgressId?: number,
): Promise<void> {
  if (task.openSlots === 0) return;
  const amount = task.reward * task.openSlots;
  await tx.db.update(tradeMissions).set({ openSlots: 0 }).where(eq(tradeMissions.id, task.id));
  await postLedgerTransaction(tx, {
    idempotencyKey: rejectedProgressId === undefined ? `trade_refund:${task.id}` : `trade_refund:${task.id}:${rejectedProgressId}`,
    kind: "trade_refund",
    data: { missionId: task.id, slots: task.openSlots, reason, title: task.title, path: taskPath(task.id) },
    entries: [
      { account: taskHold(task.id), amount: -amount },
      { account: { userId: task.posterId, currency: "sinecoin" }, amount },
    ],
  });
  await emit(tx, {
    verb: "trade.refunded",
    actorId: null,
    subjectId: task.posterId,
    recipientIds: [task.posterId],
    data: { missionId: task.id, amount, reason },
  });
  tx.invalidate(userTag(task.posterId));
}

/**
 * At the deadline: open tasks close, their untaken slots and the slots taken but never submitted
 * are refunded; submitted work keeps its reward held until it is reviewed (or auto-approved).
 * Only open tasks past their deadline are touched, each under its row lock: a second run moves nothing.
 */
export async function closeTasksAtDeadline(db: Database, now: Date): Promise<number> {
  const due = await db
    .select({ id: tradeMissions.id })
    .from(tradeMissions)
    .where(and(eq(tradeMissions.status, "open"), lte(tradeMissions.deadline, now)));
  let closed = 0;
  for (const { id } of due) {
    await inTransaction({ db }, async (tx) => {
      const [task] = await tx.db
        .select()
        .from(tradeMissions)
        .where(and(eq(tradeMissions.id, id), eq(tradeMissions.status, "open")))
        .for("update");
      if (!task) return;
      const idle = await tx.db
        .update(tradeProgress)
        .set({ status: "expired", reviewedAt: now })
        .where(and(eq(tradeProgress.missionId, id), eq(tradeProgress.status, "accepted")))
        .returning({ id: tradeProgress.id });
      await tx.db.update(tradeMissions).set({ status: "expired" }).where(eq(tradeMissions.id, id));
      await refundOpenSlots(tx, { ...task, openSlots: task.openSlots + idle.length }, "deadline");
      closed += 1;
    });
  }
  return closed;
}

/** Submissions unreviewed for 72 hours are approved and paid, each once (only `submitted` rows are taken). */
export async function autoApproveStale(db: Database, now: Date): Promise<number> {
  const due = await db
    .select({ id: tradeProgress.id, missionId: tradeProgress.missionId })
    .from(tradeProgress)
    .where(and(eq(tradeProgress.status, "submitted"), lte(tradeProgress.submittedAt, new Date(now.getTime() - autoApproveAfterMs))));
  let approved = 0;
  for (const { id, missionId } of due) {
    await inTransaction({ db }, async (tx) => {
      const [task] = await tx.db.select().from(tradeMissions).where(eq(tradeMissions.id, missionId)).for("update");
      const [progress] = await tx.db
        .select()
        .from(tradeProgress)
        .where(and(eq(tradeProgress.id, id), eq(tradeProgress.status, "submitted")))
        .for("update");
      if (!task || !progress) return;
      await payReward(tx, task, progress, now, true);
      approved += 1;
    });
  }
  return approved;
}
