import { and, desc, eq, isNotNull, isNull } from "drizzle-orm";
import type { Executor } from "../../server/db/client.ts";
import { unlockRefundRequests, users, writingPaidParts, writingUnlocks } from "../../server/db/schema/index.ts";
import { AppError } from "../../common/app-error.ts";
import { onceByKey, requireIdempotencyKey } from "../../server/lib/idempotency.ts";
import { inTransaction, type ServiceOptions } from "../../server/lib/transactions.ts";
import { userTag } from "../../server/lib/cache-tags.ts";
import type { Viewer } from "../accounts/viewer.ts";
import type { CircleAccess } from "../circles/policy.ts";
import { postLedgerTransaction } from "../ledger/service.ts";
import { emit } from "../events/bus.ts";
import { loadReadableWriting } from "../writings/service.ts";
import { can } from "../writings/policy.ts";
import { writingPath } from "../writings/paths.ts";

/** A refund may be asked for this long after unlocking, once (the author or a moderator decides). */
export const refundWindowMs = 24 * 60 * 60 * 1000;

export interface Paywall {
  price: number;
  /** The author and those who may delete it (moderators) always read all of it; readers once they unlocked. */
  entitled: boolean;
  unlocked: boolean;
  /** Until when the reader may ask for a refund (null: not refundable, or already asked). */
  refundableUntil: Date | null;
  /** The reader's refund request for this unlock, if they made one. */
  refundRequest: "open" | "approved" | "rejected" | null;
  /** The paid part's HTML, only for the entitled. */
  paidHtml: string | null;
}

/**
 * A writing's paywall for this viewer, or null for a free writing. The paid part is read only
 * here and only for an entitled viewer, so no one else's page, answer or cache ever holds it.
 */
export async function paywallFor(
  db: Executor,
  viewer: Viewer | null,
  row: { id: number; authorId: number; payToViewPrice: number },
  access: CircleAccess,
  now: Date = new Date(),
): Promise<Paywall | null> {
  if (row.payToViewPrice <= 0) return null;
  const [part] = await db
    .select({ writingId: writingPaidParts.writingId })
    .from(writingPaidParts)
    .where(eq(writingPaidParts.writingId, row.id));
  if (!part) return null;
  const privileged = viewer !== null && (viewer.id === row.authorId || can(viewer, "delete", { writing: row, access }));
  const [unlock] = viewer
    ? await db
        .select({ id: writingUnlocks.id, createdAt: writingUnlocks.createdAt, refunds: writingUnlocks.refunds })
        .from(writingUnlocks)
        .where(and(eq(writingUnlocks.writingId, row.id), eq(writingUnlocks.userId, viewer.id), isNull(writingUnlocks.refundedAt)))
    : [];
  const entitled = privileged || unlock !== undefined;
  const paidHtml = entitled
    ? ((await db.select({ html: writingPaidParts.html }).from(writingPaidParts).where(eq(writingPaidParts.writingId, row.id)))[0]?.html ??
      null)
    : null;
  const [request] = unlock
    ? await db
        .select({ status: unlockRefundRequests.status })
        .from(unlockRefundRequests)
        .where(eq(unlockRefundRequests.unlockId, unlock.id))
        .orderBy(desc(unlockRefundRequests.id))
        .limit(1)
    : [];
  const refundableUntil = unlock && unlock.refunds === 0 && !request ? new Date(unlock.createdAt.getTime() + refundWindowMs) : null;
  return {
    refundRequest: request?.status ?? null,
    price: row.payToViewPrice,
    entitled,
    unlocked: unlock !== undefined,
    refundableUntil: refundableUntil && refundableUntil > now ? refundableUntil : null,
    paidHtml,
  };
}

export interface UnlockResult {
  writingId: number;
  price: number;
  /** The whole text: the free part then the paid part. */
  html: string;
  /** What the reader paid now (0 when it was already theirs to read). */
  charged: number;
  balance: number;
}

export async function balanceOf(db: Executor, userId: number): Promise<number> {
  const [row] = await db.select({ sinecoin: users.sinecoin }).from(users).where(eq(users.id, userId));
  return row?.sinecoin ?? 0;
}

/**
 * Unlocks a pay-to-view writing: one payment per reader per writing (the reader pays the price,
 * the author receives it as profit), in one transaction with the unlock row and once per
 * idempotency key; a reader who may already read all of it pays nothing.
 */
export async function unlockWriting(
  options: ServiceOptions,
  viewer: Viewer,
  id: number,
  idempotencyKey: string | undefined,
  now: Date,
): Promise<UnlockResult> {
  const key = requireIdempotencyKey(idempotencyKey);
  const { row, access } = await loadReadableWriting(options.db, viewer, id);
  const paywall = await paywallFor(options.db, viewer, row, access, now);
  if (!paywall) throw new AppError("not_found");
  return inTransaction(options, (tx) =>
    onceByKey(tx, { userId: viewer.id, key, operation: "unlock", input: { id } }, async () => {
      const whole = async (charged: number): Promise<UnlockResult> => {
        const [part] = await tx.db.select({ html: writingPaidParts.html }).from(writingPaidParts).where(eq(writingPaidParts.writingId, id));
        return {
          writingId: id,
          price: paywall.price,
          html: `${row.html}${part?.html ?? ""}`,
          charged,
          balance: await balanceOf(tx.db, viewer.id),
        };
      };
      if (paywall.entitled) return whole(0);
      // One unlock row per reader and writing: a racing second unlock meets it and pays nothing.
      const [claimed] = await tx.db
        .insert(writingUnlocks)
        .values({ writingId: id, userId: viewer.id, price: paywall.price, createdAt: now })
        .onConflictDoUpdate({
          target: [writingUnlocks.writingId, writingUnlocks.userId],
          set: { refundedAt: null, price: paywall.price, createdAt: now },
          // Only a refunded unlock is taken again (and paid again); a live one stays as it is.
          setWhere: isNotNull(writingUnlocks.refundedAt),
        })
        .returning({ id: writingUnlocks.id });
      if (!claimed) return whole(0);
      await postLedgerTransaction(tx, {
        idempotencyKey: `unlock:${claimed.id}:${now.getTime()}`,
        kind: "unlock",
        data: {
          writingId: id,
          unlockId: claimed.id,
          authorId: row.authorId,
          title: row.title,
          path: writingPath(row),
          counterparty: viewer.nickname || viewer.username,
        },
        entries: [
          { account: { userId: viewer.id, currency: "sinecoin" }, amount: -paywall.price },
          { account: { userId: row.authorId, currency: "sinecoin" }, amount: paywall.price },
        ],
      });
      await emit(tx, {
        verb: "unlock.purchased",
        actorId: viewer.id,
        subjectId: id,
        data: { unlockId: claimed.id, price: paywall.price, authorId: row.authorId, source: "unlocks" },
      });
      tx.invalidate(userTag(viewer.id), userTag(row.authorId));
      return whole(paywall.price);
    }),
  );
}
