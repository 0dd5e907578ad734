import { and, asc, desc, eq, gte, sql } from "drizzle-orm";
import type { Database } from "../../server/db/client.ts";
import { unlockRefundRequests, users, writingUnlocks } from "../../server/db/schema/index.ts";
import { AppError } from "../../common/app-error.ts";
import { onceByKey, requireIdempotencyKey } from "../../server/lib/idempotency.ts";
import { inTransaction, type ServiceOptions } from "../../server/lib/transactions.ts";
import { contentTag, userTag } from "../../server/lib/cache-tags.ts";
import type { Viewer } from "../accounts/viewer.ts";
import { emit } from "../events/bus.ts";
import { postLedgerTransaction } from "../ledger/service.ts";
import { loadReadableWriting, type WritingRow } from "../writings/service.ts";
import { can } from "../writings/policy.ts";
import { writingPath } from "../writings/paths.ts";
import { refundWindowMs } from "./service.ts";

/**
 * Refunds of unlocks are asked, not taken (as on Zhihu and Juejin, read content is not refunded on
 * demand): the reader asks with a reason within 24 hours of unlocking, once per unlock, at most
 * `dailyRefundRequests` a day (Asia/Shanghai); the writing's author, or whoever may delete it
 * (its circle's moderators, the site's moderators and admins), approves (the author pays it back,
 * which takes it out of their profit) or rejects (the reader keeps reading).
 */
export const dailyRefundRequests = 3;

export interface RefundRequestView {
  id: number;
  writingId: number;
  reader: { id: number; username: string; nickname: string };
  reason: string;
  price: number;
  status: "open" | "approved" | "rejected";
  createdAt: Date;
  decidedAt: Date | null;
}

/** The start of `now`'s day in Asia/Shanghai (UTC+8, no daylight saving). */
function shanghaiDayStart(now: Date): Date {
  const eightHours = 8 * 3_600_000;
  const shifted = now.getTime() + eightHours;
  return new Date(shifted - (shifted % 86_400_000) - eightHours);
}

export async function requestUnlockRefund(
  options: ServiceOptions,
  viewer: Viewer,
  writingId: number,
  reason: string,
  idempotencyKey: string | undefined,
  now: Date,
): Promise<{ id: number; status: "open" }> {
  const key = requireIdempotencyKey(idempotencyKey);
  const { row } = await loadReadableWriting(options.db, viewer, writingId);
  return inTransaction(options, (tx) =>
    onceByKey(tx, { userId: viewer.id, key, operation: "unlock_refund_request", input: { writingId, reason } }, async () => {
      const [unlock] = await tx.db
        .select()
        .from(writingUnlocks)
        .where(and(eq(writingUnlocks.writingId, writingId), eq(writingUnlocks.userId, viewer.id)))
        .for("update");
      if (!unlock || unlock.refundedAt || unlock.refunds > 0 || now.getTime() - unlock.createdAt.getTime() > refundWindowMs)
        throw new AppError("refund_unavailable");
      const [asked] = await tx.db
        .select({ id: unlockRefundRequests.id })
        .from(unlockRefundRequests)
        .where(eq(unlockRefundRequests.unlockId, unlock.id))
        .limit(1);
      if (asked) throw new AppError("refund_unavailable");
      const [today] = await tx.db
        .select({ count: sql<number>`count(*)::int` })
        .from(unlockRefundRequests)
        .where(and(eq(unlockRefundRequests.readerId, viewer.id), gte(unlockRefundRequests.createdAt, shanghaiDayStart(now))));
      if ((today?.count ?? 0) >= dailyRefundRequests) throw new AppError("refund_request_limit");
      const [request] = await tx.db
        .insert(unlockRefundRequests)
        .values({ unlockId: unlock.id, writingId, readerId: viewer.id, reason, createdAt: now })
        .returning({ id: unlockRefundRequests.id });
      await emit(tx, {
        verb: "unlock.refund_requested",
        actorId: viewer.id,
        subjectId: writingId,
        data: { requestId: request!.id, unlockId: unlock.id, authorId: row.authorId, reason },
        recipientIds: [row.authorId],
      });
      tx.invalidate(contentTag("writing", writingId));
      return { id: request!.id, status: "open" as const };
    }),
  );
}

/** The author, or whoever may delete the writing (moderators, site staff), decides its refund requests. */
async function decidableWriting(db: Database, viewer: Viewer, writingId: number): Promise<WritingRow> {
  const { row, access } = await loadReadableWriting(db, viewer, writingId);
  if (viewer.id !== row.authorId && !can(viewer, "delete", { writing: row, access })) throw new AppError("forbidden");
  return row;
}

/** A writing's refund requests, open ones first, for its author and moderators. */
export async function refundRequestsOf(db: Database, viewer: Viewer, writingId: number): Promise<RefundRequestView[]> {
  await decidableWriting(db, viewer, writingId);
  const rows = await db
    .select({
      id: unlockRefundRequests.id,
      writingId: unlockRefundRequests.writingId,
      readerId: users.id,
      username: users.username,
      nickname: users.nickname,
      reason: unlockRefundRequests.reason,
      price: writingUnlocks.price,
      status: unlockRefundRequests.status,
      createdAt: unlockRefundRequests.createdAt,
      decidedAt: unlockRefundRequests.decidedAt,
    })
    .from(unlockRefundRequests)
    .innerJoin(users, eq(users.id, unlockRefundRequests.readerId))
    .innerJoin(writingUnlocks, eq(writingUnlocks.id, unlockRefundRequests.unlockId))
    .where(eq(unlockRefundRequests.writingId, writingId))
    .orderBy(sql`${unlockRefundRequests.status} = 'open' desc`, desc(unlockRefundRequests.createdAt), asc(unlockRefundRequests.id))
    .limit(100);
  return rows.map(({ readerId, username, nickname, ...rest }) => ({ ...rest, reader: { id: readerId, username, nickname } }));
}

/**
 * Decides an open request (the row locked: a second decision finds it decided, 409
 * `refund_request_decided`). Approving pays the price back from the author to the reader
 * (`unlock_refund`, which reduces the author's profit; refused with `insufficient_balance` when
 * the author has spent it) and closes the paid part to the reader again; rejecting keeps the unlock.
 */
export async function decideUnlockRefund(
  options: ServiceOptions,
  viewer: Viewer,
  requestId: number,
  decision: "approve" | "reject",
  idempotencyKey: string | undefined,
  now: Date,
): Promise<{ id: number; status: "approved" | "rejected" }> {
  const key = requireIdempotencyKey(idempotencyKey);
  const [found] = await options.db
    .select({ writingId: unlockRefundRequests.writingId })
    .from(unlockRefundRequests)
    .where(eq(unlockRefundRequests.id, requestId));
  if (!found) throw new AppError("not_found");
  const row = await decidableWriting(options.db, viewer, found.writingId);
  return inTransaction(options, (tx) =>
    onceByKey(tx, { userId: viewer.id, key, operation: "unlock_refund_decision", input: { requestId, decision } }, async () => {
      const [request] = await tx.db.select().from(unlockRefundRequests).where(eq(unlockRefundRequests.id, requestId)).for("update");
      if (!request) throw new AppError("not_found");
      if (request.status !== "open") throw new AppError("refund_request_decided");
      const status = decision === "approve" ? ("approved" as const) : ("rejected" as const);
      await tx.db
        .update(unlockRefundRequests)
        .set({ status, deciderId: viewer.id, decidedAt: now })
        .where(eq(unlockRefundRequests.id, requestId));
      const [unlock] = await tx.db.select().from(writingUnlocks).where(eq(writingUnlocks.id, request.unlockId)).for("update");
      if (!unlock) throw new AppError("not_found");
      if (status === "rejected") {
        await emit(tx, {
          verb: "unlock.refund_rejected",
          actorId: viewer.id,
          subjectId: row.id,
          data: { requestId, unlockId: unlock.id, authorId: row.authorId, readerId: request.readerId },
          recipientIds: [request.readerId],
        });
        tx.invalidate(contentTag("writing", row.id));
        return { id: requestId, status };
      }
      await tx.db
        .update(writingUnlocks)
        .set({ refundedAt: now, refunds: unlock.refunds + 1 })
        .where(eq(writingUnlocks.id, unlock.id));
      const [reader] = await tx.db
        .select({ nickname: users.nickname, username: users.username })
        .from(users)
        .where(eq(users.id, request.readerId));
      await postLedgerTransaction(tx, {
        idempotencyKey: `unlock_refund:${unlock.id}`,
        kind: "unlock_refund",
        data: {
          writingId: row.id,
          unlockId: unlock.id,
          authorId: row.authorId,
          requestId,
          title: row.title,
          path: writingPath(row),
          counterparty: reader ? reader.nickname || reader.username : "",
        },
        entries: [
          { account: { userId: row.authorId, currency: "sinecoin" }, amount: -unlock.price },
          { account: { userId: request.readerId, currency: "sinecoin" }, amount: unlock.price },
        ],
      });
      await emit(tx, {
        verb: "unlock.refunded",
        actorId: viewer.id,
        subjectId: row.id,
        data: {
          requestId,
          unlockId: unlock.id,
          amount: unlock.price,
          authorId: row.authorId,
          readerId: request.readerId,
          source: "unlocks",
        },
        recipientIds: [request.readerId],
      });
      tx.invalidate(userTag(request.readerId), userTag(row.authorId), contentTag("writing", row.id));
      return { id: requestId, status };
    }),
  );
}
