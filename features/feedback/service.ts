import { and, count, desc, eq, gt, min } from "drizzle-orm";
import type { Executor } from "../../server/db/client.ts";
import { feedback, users } from "../../server/db/schema/index.ts";
import { inTransaction, type ServiceOptions } from "../../server/lib/transactions.ts";
import { AppError } from "../../common/app-error.ts";
import { authorize } from "../../common/policy.ts";
import { emit } from "../events/bus.ts";
import { loadSiteRole } from "../accounts/site-role.ts";
import type { Viewer } from "../accounts/viewer.ts";
import { can } from "./policy.ts";
import { requireStaff } from "../admin/staff.ts";
import { recordAudit, requireReason } from "../admin/audit.ts";
import type { FeedbackCategory, FeedbackStatus } from "./constants.ts";
import type { FeedbackInput, FeedbackStatusInput } from "./schema.ts";

/** At most this many feedback messages per sender per window, counted from the rows (page form and API alike, every process). */
export const feedbackRateLimit = { max: 5, windowSeconds: 3600 } as const;

export interface FeedbackRow {
  id: number;
  userId: number;
  username: string;
  category: FeedbackCategory;
  message: string;
  pagePath: string;
  status: FeedbackStatus;
  reply: string;
  createdAt: Date;
  updatedAt: Date;
}

const columns = {
  id: feedback.id,
  userId: feedback.userId,
  username: users.username,
  category: feedback.category,
  message: feedback.message,
  pagePath: feedback.pagePath,
  status: feedback.status,
  reply: feedback.reply,
  createdAt: feedback.createdAt,
  updatedAt: feedback.updatedAt,
};

async function assertUnderRateLimit(db: Executor, userId: number, now: Date): Promise<void> {
  const since = new Date(now.getTime() - feedbackRateLimit.windowSeconds * 1000);
  const [row] = await db
    .select({ count: count(), oldest: min(feedback.createdAt) })
    .from(feedback)
    .where(and(eq(feedback.userId, userId), gt(feedback.createdAt, since)));
  if (row && row.count >= feedbackRateLimit.max) {
    const elapsed = row.oldest ? (now.getTime() - new Date(row.oldest).getTime()) / 1000 : 0;
    throw new AppError("rate_limited", { params: { seconds: Math.max(1, Math.ceil(feedbackRateLimit.windowSeconds - elapsed)) } });
  }
}

/** Sends feedback to the admins; the sender reads it, with its status, on `/feedback`. */
export async function sendFeedback(options: ServiceOptions & { now: Date }, viewer: Viewer, input: FeedbackInput): Promise<FeedbackRow> {
  authorize(viewer, can(viewer, "send"));
  return inTransaction(options, async (tx) => {
    await assertUnderRateLimit(tx.db, viewer.id, options.now);
    const [row] = await tx.db
      .insert(feedback)
      .values({
        userId: viewer.id,
        category: input.category,
        message: input.message,
        pagePath: input.page_path,
        createdAt: options.now,
        updatedAt: options.now,
      })
      .returning({ id: feedback.id });
    await emit(tx, {
      actorId: viewer.id,
      verb: "feedback.sent",
      subjectId: viewer.id,
      data: { feedbackId: row!.id, category: input.category },
    });
    const [created] = await tx.db
      .select(columns)
      .from(feedback)
      .innerJoin(users, eq(users.id, feedback.userId))
      .where(eq(feedback.id, row!.id));
    return created!;
  });
}

/** The sender's own feedback, newest first (never anyone else's). */
export async function listOwnFeedback(db: Executor, viewer: Viewer, limit = 50): Promise<FeedbackRow[]> {
  authorize(viewer, can(viewer, "send"));
  return db
    .select(columns)
    .from(feedback)
    .innerJoin(users, eq(users.id, feedback.userId))
    .where(eq(feedback.userId, viewer.id))
    .orderBy(desc(feedback.createdAt), desc(feedback.id))
    .limit(limit);
}

/** Everyone's feedback for the admins, newest first, optionally in one status. */
export async function listAllFeedback(db: Executor, viewer: Viewer, status: FeedbackStatus | "all", limit = 100): Promise<FeedbackRow[]> {
  authorize(viewer, can(viewer, "manage", await loadSiteRole(db, viewer.id)));
  return db
    .select(columns)
    .from(feedback)
    .innerJoin(users, eq(users.id, feedback.userId))
    .where(status === "all" ? undefined : eq(feedback.status, status))
    .orderBy(desc(feedback.createdAt), desc(feedback.id))
    .limit(limit);
}

/** An admin sets a feedback's status and reply; the sender sees both on `/feedback`. */
export async function setFeedbackStatus(
  options: ServiceOptions & { now: Date },
  viewer: Viewer,
  id: number,
  input: FeedbackStatusInput,
  address = "",
): Promise<FeedbackRow> {
  const staff = await requireStaff(options.db, viewer, "review_feedback");
  const why = requireReason(input.reason);
  return inTransaction(options, async (tx) => {
    const [current] = await tx.db
      .select({ status: feedback.status, userId: feedback.userId })
      .from(feedback)
      .where(eq(feedback.id, id))
      .for("update");
    if (!current) throw new AppError("not_found");
    await tx.db
      .update(feedback)
      .set({ status: input.status, reply: input.reply, handledBy: viewer.id, updatedAt: options.now })
      .where(eq(feedback.id, id));
    await recordAudit(
      tx.db,
      { staff, address },
      {
        action: "feedback.status",
        target: `feedback:${id}`,
        before: { status: current.status },
        after: { status: input.status, reply: input.reply },
        reason: why,
      },
    );
    await emit(tx, {
      actorId: viewer.id,
      verb: "feedback.status_changed",
      subjectId: current.userId,
      data: { feedbackId: id, from: current.status, to: input.status },
      recipientIds: [current.userId],
    });
    const [updated] = await tx.db.select(columns).from(feedback).innerJoin(users, eq(users.id, feedback.userId)).where(eq(feedback.id, id));
    return updated!;
  });
}
