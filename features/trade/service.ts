import { and, eq } from "drizzle-orm";
import { tradeMissions, tradeProgress, users } from "../../server/db/schema/index.ts";
import { AppError } from "../../common/app-error.ts";
import { onceByKey, requireIdempotencyKey } from "../../server/lib/idempotency.ts";
import { inTransaction, type ServiceOptions, type Transaction } from "../../server/lib/transactions.ts";
import { userTag } from "../../server/lib/cache-tags.ts";
import type { Viewer } from "../accounts/viewer.ts";
import { postLedgerTransaction, type LedgerAccount } from "../ledger/service.ts";
import { emit } from "../events/bus.ts";
import { loadCircleAccess } from "../circles/access.server.ts";
import { canReadCircleContent } from "../circles/policy.ts";
import { refundOpenSlots, taskHold, taskPath } from "./escrow.ts";

export interface TaskInput {
  circle_id: number;
  title: string;
  description: string;
  reward: number;
  slots: number;
  deadline: Date;
}

type ProgressRow = typeof tradeProgress.$inferSelect;
type TaskRow = typeof tradeMissions.$inferSelect;

/**
 * Posts a task: reward × slots leaves the poster's sinecoin into the task's hold in the same
 * transaction (the balance check of the database refuses what it does not cover: 409
 * `insufficient_balance`); one task per idempotency key.
 */
export async function postTask(
  options: ServiceOptions,
  viewer: Viewer,
  input: TaskInput,
  idempotencyKey: string | undefined,
  now: Date,
): Promise<{ id: number }> {
  const key = requireIdempotencyKey(idempotencyKey);
  const access = await loadCircleAccess(options.db, viewer, input.circle_id);
  if (!access || !canReadCircleContent(access))
    throw new AppError("validation_failed", { fields: { circle_id: "validation:invalid_value" } });
  const ahead = input.deadline.getTime() - now.getTime();
  if (ahead <= 0 || ahead > 90 * 86_400_000) throw new AppError("validation_failed", { fields: { deadline: "validation:trade_deadline" } });
  return inTransaction(options, (tx) =>
    onceByKey(
      tx,
      { userId: viewer.id, key, operation: "trade_mission", input: { ...input, deadline: input.deadline.toISOString() } },
      async () => {
        const [task] = await tx.db
          .insert(tradeMissions)
          .values({
            circleId: input.circle_id,
            posterId: viewer.id,
            title: input.title,
            description: input.description,
            reward: input.reward,
            slots: input.slots,
            openSlots: input.slots,
            deadline: input.deadline,
            createdAt: now,
          })
          .returning({ id: tradeMissions.id });
        const id = task!.id;
        const total = input.reward * input.slots;
        await postLedgerTransaction(tx, {
          idempotencyKey: `trade_escrow:${id}`,
          kind: "trade_escrow",
          data: { missionId: id, slots: input.slots, title: input.title, path: taskPath(id) },
          entries: [
            { account: { userId: viewer.id, currency: "sinecoin" }, amount: -total },
            { account: taskHold(id), amount: total },
          ],
        });
        await emit(tx, {
          verb: "trade.mission_posted",
          actorId: viewer.id,
          subjectId: viewer.id,
          data: { missionId: id, reward: input.reward, slots: input.slots },
        });
        tx.invalidate(userTag(viewer.id));
        return { id };
      },
    ),
  );
}

async function lockTask(tx: Transaction, id: number): Promise<TaskRow> {
  const [task] = await tx.db.select().from(tradeMissions).where(eq(tradeMissions.id, id)).for("update");
  if (!task) throw new AppError("not_found");
  return task;
}

/** Cancelling refunds only the slots nobody has taken; taken slots stay held for their workers. */
export async function cancelTask(options: ServiceOptions, viewer: Viewer, id: number): Promise<void> {
  await inTransaction(options, async (tx) => {
    const task = await lockTask(tx, id);
    if (task.posterId !== viewer.id) throw new AppError("forbidden");
    if (task.status !== "open") return;
    await tx.db.update(tradeMissions).set({ status: "cancelled" }).where(eq(tradeMissions.id, id));
    await refundOpenSlots(tx, task, "cancelled");
  });
}

/**
 * A worker takes one slot: the task row is locked, so 20 workers racing for 3 slots make exactly
 * 3 progress records; one per worker and task (409 `already_accepted`), never the poster's own (403).
 */
export async function acceptTask(options: ServiceOptions, viewer: Viewer, id: number, now: Date): Promise<{ progress_id: number }> {
  return inTransaction(options, async (tx) => {
    const task = await lockTask(tx, id);
    const access = await loadCircleAccess(tx.db, viewer, task.circleId);
    if (!access || !canReadCircleContent(access)) throw new AppError("not_found");
    if (task.posterId === viewer.id) throw new AppError("forbidden");
    const [mine] = await tx.db
      .select({ id: tradeProgress.id })
      .from(tradeProgress)
      .where(and(eq(tradeProgress.missionId, id), eq(tradeProgress.workerId, viewer.id)));
    if (mine) throw new AppError("already_accepted");
    if (task.status !== "open" || task.openSlots === 0 || task.deadline <= now) throw new AppError("no_slots");
    await tx.db
      .update(tradeMissions)
      .set({ openSlots: task.openSlots - 1 })
      .where(eq(tradeMissions.id, id));
    const [progress] = await tx.db
      .insert(tradeProgress)
      .values({ missionId: id, workerId: viewer.id, createdAt: now })
      .returning({ id: tradeProgress.id });
    await emit(tx, {
      verb: "trade.accepted",
      actorId: viewer.id,
      subjectId: task.posterId,
      recipientIds: [task.posterId],
      data: { missionId: id, progressId: progress!.id },
    });
    return { progress_id: progress!.id };
  });
}

/** The progress row and its task, both locked (task first, as every writer locks them). */
export async function lockProgress(tx: Transaction, progressId: number): Promise<{ progress: ProgressRow; task: TaskRow }> {
  const [found] = await tx.db.select({ missionId: tradeProgress.missionId }).from(tradeProgress).where(eq(tradeProgress.id, progressId));
  if (!found) throw new AppError("not_found");
  const task = await lockTask(tx, found.missionId);
  const [progress] = await tx.db.select().from(tradeProgress).where(eq(tradeProgress.id, progressId)).for("update");
  return { progress: progress!, task };
}

export async function submitWork(options: ServiceOptions, viewer: Viewer, progressId: number, content: string, now: Date): Promise<void> {
  await inTransaction(options, async (tx) => {
    const { progress, task } = await lockProgress(tx, progressId);
    if (progress.workerId !== viewer.id) throw new AppError("forbidden");
    if (progress.status !== "accepted" || task.deadline <= now) throw new AppError("trade_progress_closed");
    await tx.db.update(tradeProgress).set({ status: "submitted", content, submittedAt: now }).where(eq(tradeProgress.id, progressId));
    await emit(tx, {
      verb: "trade.submitted",
      actorId: viewer.id,
      subjectId: task.posterId,
      recipientIds: [task.posterId],
      data: { missionId: task.id, progressId },
    });
  });
}

async function nameOf(tx: Transaction, userId: number): Promise<string> {
  const [row] = await tx.db.select({ nickname: users.nickname, username: users.username }).from(users).where(eq(users.id, userId));
  return row ? row.nickname || row.username : "";
}

/**
 * Pays a locked submitted slot: its reward from the task's hold to the worker as profit, once (the
 * status leaves `submitted` in the same transaction and the posting's key is the progress id).
 * A moderator overturning a rejection pays the same way, from the account `overturn.from`.
 */
export async function payReward(
  tx: Transaction,
  task: TaskRow,
  progress: ProgressRow,
  now: Date,
  auto: boolean,
  overturn?: { moderatorId: number; from: LedgerAccount },
): Promise<void> {
  await tx.db
    .update(tradeProgress)
    .set({ status: "approved", reviewedAt: now, autoApproved: auto ? 1 : 0 })
    .where(eq(tradeProgress.id, progress.id));
  await postLedgerTransaction(tx, {
    idempotencyKey: `trade_reward:${progress.id}`,
    kind: "trade_reward",
    data: {
      missionId: task.id,
      progressId: progress.id,
      title: task.title,
      path: taskPath(task.id),
      counterparty: await nameOf(tx, task.posterId),
    },
    entries: [
      { account: overturn?.from ?? taskHold(task.id), amount: -task.reward },
      { account: { userId: progress.workerId, currency: "sinecoin" }, amount: task.reward },
    ],
  });
  await emit(tx, {
    verb: "trade.approved",
    actorId: overturn ? overturn.moderatorId : auto ? null : task.posterId,
    subjectId: progress.workerId,
    recipientIds: auto || overturn ? [progress.workerId, task.posterId] : [progress.workerId],
    data: { missionId: task.id, progressId: progress.id, amount: task.reward, auto, source: "missions" },
  });
  tx.invalidate(userTag(progress.workerId), userTag(task.posterId));
}

/** The poster approves a submission; a second (or concurrent) approval finds it approved and pays nothing. */
export async function approveWork(options: ServiceOptions, viewer: Viewer, progressId: number, now: Date): Promise<void> {
  await inTransaction(options, async (tx) => {
    const { progress, task } = await lockProgress(tx, progressId);
    if (task.posterId !== viewer.id) throw new AppError("forbidden");
    if (progress.status === "approved") return;
    if (progress.status !== "submitted") throw new AppError("trade_progress_closed");
    await payReward(tx, task, progress, now, false);
  });
}

/**
 * The poster rejects a submission with a reason: the slot reopens for others while the task is
 * open; once it is closed (cancelled or past its deadline) that slot's reward goes back to the poster.
 */
export async function rejectWork(options: ServiceOptions, viewer: Viewer, progressId: number, reason: string, now: Date): Promise<void> {
  await inTransaction(options, async (tx) => {
    const { progress, task } = await lockProgress(tx, progressId);
    if (task.posterId !== viewer.id) throw new AppError("forbidden");
    if (progress.status !== "submitted") throw new AppError("trade_progress_closed");
    await tx.db.update(tradeProgress).set({ status: "rejected", reason, reviewedAt: now }).where(eq(tradeProgress.id, progressId));
    const reopened = { ...task, openSlots: task.openSlots + 1 };
    await tx.db.update(tradeMissions).set({ openSlots: reopened.openSlots }).where(eq(tradeMissions.id, task.id));
    if (task.status !== "open" || task.deadline <= now) await refundOpenSlots(tx, reopened, "rejected_after_close", progressId);
    await emit(tx, {
      verb: "trade.rejected",
      actorId: viewer.id,
      subjectId: progress.workerId,
      recipientIds: [progress.workerId],
      data: { missionId: task.id, progressId, reason },
    });
  });
}

/** The worker disputes a rejection: it goes to the admins' queue (the `trade.disputed` event), once. */
export async function disputeRejection(options: ServiceOptions, viewer: Viewer, progressId: number, now: Date): Promise<void> {
  await inTransaction(options, async (tx) => {
    const { progress, task } = await lockProgress(tx, progressId);
    if (progress.workerId !== viewer.id) throw new AppError("forbidden");
    if (progress.status !== "rejected" || progress.disputedAt) throw new AppError("trade_progress_closed");
    await tx.db.update(tradeProgress).set({ disputedAt: now }).where(eq(tradeProgress.id, progressId));
    await emit(tx, {
      verb: "trade.disputed",
      actorId: viewer.id,
      subjectId: task.posterId,
      recipientIds: [task.posterId],
      data: { missionId: task.id, progressId },
    });
  });
}
