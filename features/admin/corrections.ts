import { and, desc, eq } from "drizzle-orm";
import { z } from "zod";
import type { Executor } from "../../server/db/client.ts";
import { ledgerCorrections, users } from "../../server/db/schema/index.ts";
import { AppError } from "../../common/app-error.ts";
import { countInstance } from "../../server/lib/single-instance.ts";
import { inTransaction, type ServiceOptions, type Transaction } from "../../server/lib/transactions.ts";
import { postLedgerTransaction } from "../ledger/service.ts";
import { userTag } from "../../server/lib/cache-tags.ts";
import { recordAudit, reasonField, requireReason } from "./audit.ts";
import type { Staff } from "./staff.ts";

/*
 * Ledger corrections (`/admin/ledger`): an admin corrects a user's balance with a new balanced
 * transaction (kind `grant`, between the user's purse and `system:corrections`), never by editing
 * one. Each needs a reason; up to the configured amount (LEDGER_CORRECTION_APPROVAL_ABOVE) it is
 * posted at once, above it it waits for a second admin's approval (not the one who asked). Asking,
 * approving and rejecting are audited (`ledger.correction.request`, `.approve`, `.reject`).
 */
countInstance("admin/corrections");

const settings = { approvalAbove: 1000 };

/** Set once at start-up from the configuration. */
export function configureCorrections(options: { approvalAbove: number }): void {
  settings.approvalAbove = Math.max(0, Math.floor(options.approvalAbove));
}

export function correctionApprovalAbove(): number {
  return settings.approvalAbove;
}

export const correctionSchema = z.strictObject({
  user_id: z.coerce.number().int().positive({ message: "validation:invalid_value" }),
  currency: z.enum(["gold", "sinecoin"], { message: "validation:invalid_value" }),
  amount: z.coerce
    .number({ message: "validation:invalid_value" })
    .int({ message: "validation:invalid_value" })
    .refine((value) => value !== 0 && Math.abs(value) <= 10_000_000, { message: "validation:invalid_value" }),
  reason: reasonField,
});
export type CorrectionInput = z.infer<typeof correctionSchema>;
export const correctionDecisionSchema = z.strictObject({ reason: reasonField });

export type CorrectionRow = typeof ledgerCorrections.$inferSelect & { username: string };

async function post(tx: Transaction, row: typeof ledgerCorrections.$inferSelect): Promise<number> {
  const { transactionId } = await postLedgerTransaction(tx, {
    idempotencyKey: `correction:${row.id}`,
    kind: "grant",
    data: { reason: `correction ${row.id}: ${row.reason}`.slice(0, 500) },
    entries: [
      { account: { userId: row.userId, currency: row.currency }, amount: row.amount },
      { account: { system: "corrections", currency: row.currency }, amount: -row.amount },
    ],
  });
  tx.invalidate(userTag(row.userId));
  return transactionId;
}

/** Asks for a correction: posted at once up to the configured amount, else pending a second admin. */
export async function requestCorrection(
  options: ServiceOptions,
  staff: Staff,
  address: string,
  input: CorrectionInput,
): Promise<CorrectionRow> {
  const why = requireReason(input.reason);
  return inTransaction(options, async (tx) => {
    const [user] = await tx.db.select({ username: users.username }).from(users).where(eq(users.id, input.user_id));
    if (!user) throw new AppError("not_found");
    const needsApproval = Math.abs(input.amount) > settings.approvalAbove;
    const [created] = await tx.db
      .insert(ledgerCorrections)
      .values({
        userId: input.user_id,
        currency: input.currency,
        amount: input.amount,
        reason: why,
        requestedBy: staff.id,
        status: needsApproval ? "pending" : "posted",
        ...(needsApproval ? {} : { decidedBy: staff.id, decidedAt: new Date() }),
      })
      .returning();
    let row = created!;
    if (!needsApproval) {
      const transactionId = await post(tx, row);
      [row] = await tx.db.update(ledgerCorrections).set({ transactionId }).where(eq(ledgerCorrections.id, row.id)).returning();
    }
    await recordAudit(
      tx.db,
      { staff, address },
      {
        action: "ledger.correction.request",
        target: `user:${input.user_id}`,
        after: {
          correction: row!.id,
          currency: input.currency,
          amount: input.amount,
          status: row!.status,
          transaction: row!.transactionId,
        },
        reason: why,
      },
    );
    return { ...row!, username: user.username };
  });
}

/** A second admin approves (posts) or rejects a pending correction; the one who asked may do neither (403 `second_admin_required`). */
export async function decideCorrection(
  options: ServiceOptions,
  staff: Staff,
  address: string,
  id: number,
  decision: "approve" | "reject",
  reason: string | undefined,
): Promise<CorrectionRow> {
  const why = requireReason(reason);
  return inTransaction(options, async (tx) => {
    const [pending] = await tx.db.select().from(ledgerCorrections).where(eq(ledgerCorrections.id, id)).for("update");
    if (!pending) throw new AppError("not_found");
    if (pending.status !== "pending") throw new AppError("correction_not_pending");
    if (pending.requestedBy === staff.id) throw new AppError("second_admin_required");
    const transactionId = decision === "approve" ? await post(tx, pending) : null;
    const [row] = await tx.db
      .update(ledgerCorrections)
      .set({ status: decision === "approve" ? "posted" : "rejected", decidedBy: staff.id, decidedAt: new Date(), transactionId })
      .where(and(eq(ledgerCorrections.id, id), eq(ledgerCorrections.status, "pending")))
      .returning();
    await recordAudit(
      tx.db,
      { staff, address },
      {
        action: `ledger.correction.${decision}`,
        target: `user:${pending.userId}`,
        before: { correction: id, status: "pending", amount: pending.amount, currency: pending.currency },
        after: { status: row!.status, transaction: transactionId },
        reason: why,
      },
    );
    const [user] = await tx.db.select({ username: users.username }).from(users).where(eq(users.id, pending.userId));
    return { ...row!, username: user?.username ?? "" };
  });
}

/** The latest corrections, pending first. */
export async function listCorrections(db: Executor): Promise<CorrectionRow[]> {
  const rows = await db
    .select({ correction: ledgerCorrections, username: users.username })
    .from(ledgerCorrections)
    .innerJoin(users, eq(users.id, ledgerCorrections.userId))
    .orderBy(desc(eq(ledgerCorrections.status, "pending")), desc(ledgerCorrections.id))
    .limit(50);
  return rows.map((row) => ({ ...row.correction, username: row.username }));
}
