import { randomBytes } from "node:crypto";
import { and, desc, eq, lt, or, sql } from "drizzle-orm";
import type { Database } from "../../server/db/client.ts";
import { cashouts, payoutAccounts, sandboxPayouts, users } from "../../server/db/schema/index.ts";
import { AppError } from "../../common/app-error.ts";
import { onceByKey, requireIdempotencyKey } from "../../server/lib/idempotency.ts";
import { inTransaction, type ServiceOptions, type Transaction } from "../../server/lib/transactions.ts";
import { userTag } from "../../server/lib/cache-tags.ts";
import { emit } from "../events/bus.ts";
import { incomeAccount, ledgerBalance, postLedgerTransaction } from "../ledger/service.ts";
import { recordAudit, requireReason } from "../admin/audit.ts";
import type { Staff } from "../admin/staff.ts";
import { payoutProvider, providerNameFor } from "./providers.ts";
import type { PayoutOutcome, PayoutTransfer } from "./provider.ts";
import { cashoutSettings, quoteCashout, type CashoutQuote } from "./settings.ts";

/*
 * Cashouts (features/cashouts): available profit out to the user's payout account. Every step is
 * one transaction with its ledger posting, its event (a notice to the owner) and, for staff, its
 * audit row. The coins sit in the user's `payout_hold` from the request until paid or returned.
 */

export type Cashout = typeof cashouts.$inferSelect;

/** The arithmetic of a cashout of `amount`, refused below the minimum. */
export function quote(amount: number): CashoutQuote {
  if (amount < cashoutSettings.min) throw new AppError("below_minimum", { params: { min: cashoutSettings.min } });
  return quoteCashout(amount);
}

const payoutHold = (userId: number) => ({ userId, currency: "sinecoin" as const, hold: "payout_hold" as const });
const available = (userId: number) => ({ userId, currency: "profit" as const, hold: "available" as const });
const purse = (userId: number) => ({ userId, currency: "sinecoin" as const });
const payouts = { system: "payouts", currency: "sinecoin" as const };

/**
 * Requests a cashout of `amount` of the user's available profit. The user's row is locked first,
 * so concurrent requests are served one after another and only what is still available can be
 * taken: twenty requests of the whole balance at once succeed exactly once. Idempotent by key.
 */
export async function requestCashout(
  options: ServiceOptions,
  userId: number,
  amount: number,
  idempotencyKey: string | undefined,
): Promise<Cashout> {
  const key = requireIdempotencyKey(idempotencyKey);
  const figures = quote(amount);
  const created = await inTransaction(options, async (tx) => {
    // The row lock comes before the idempotency key's row, whose foreign key share-locks the user:
    // taken the other way round, two requests would each hold the share and wait for the other.
    await tx.db.execute(sql`select id from users where id = ${userId} for update`);
    return onceByKey(tx, { userId, key, operation: "cashout", input: { amount } }, async () => {
      const [account] = await tx.db.select().from(payoutAccounts).where(eq(payoutAccounts.userId, userId));
      if (!account) throw new AppError("payout_account_required");
      const [row] = await tx.db.select({ cashable: users.cashoutableSinecoinProfit }).from(users).where(eq(users.id, userId));
      const settled = await ledgerBalance(tx.db, available(userId));
      if (amount > Math.min(row?.cashable ?? 0, settled)) throw new AppError("insufficient_cashoutable");
      const id = `co_${randomBytes(12).toString("hex")}`;
      const [cashout] = await tx.db
        .insert(cashouts)
        .values({
          id,
          userId,
          amount,
          fee: figures.fee,
          grossFen: figures.grossFen,
          taxWithheldFen: figures.taxWithheldFen,
          netFen: figures.netFen,
          fenPerSinecoin: figures.fenPerSinecoin,
          provider: providerNameFor(account.provider),
          payeeKind: account.provider,
          payeeAccount: account.alipayAccount,
          payeeName: account.realName,
        })
        .returning();
      await postLedgerTransaction(tx, {
        idempotencyKey: `cashout_request:${id}`,
        kind: "cashout_request",
        data: { payoutId: id, fee: figures.fee },
        entries: [
          { account: purse(userId), amount: -amount },
          { account: payoutHold(userId), amount },
          { account: available(userId), amount: -amount },
          { account: incomeAccount, amount },
        ],
      });
      await emit(tx, {
        verb: "cashout.requested",
        actorId: userId,
        subjectId: userId,
        data: { cashoutId: id, amount, netFen: figures.netFen },
      });
      tx.invalidate(userTag(userId));
      return cashout!.id;
    });
  });
  return (await findCashout(options.db, created))!;
}

export async function findCashout(db: Database, id: string): Promise<Cashout | null> {
  const [row] = await db.select().from(cashouts).where(eq(cashouts.id, id));
  return row ?? null;
}

/** The cashout as its owner may see it; anyone else's is `not_found`. */
export async function ownCashout(db: Database, userId: number, id: string): Promise<Cashout> {
  const row = await findCashout(db, id);
  if (!row || row.userId !== userId) throw new AppError("not_found");
  return row;
}

/** Locks a cashout's row for a state change; it must be in `from`, else `error`. */
async function lockCashout(tx: Transaction, id: string, from: Cashout["status"], error: "cashout_not_requested" | "cashout_not_approved") {
  await tx.db.execute(sql`select id from cashouts where id = ${id} for update`);
  const [cashout] = await tx.db.select().from(cashouts).where(eq(cashouts.id, id));
  if (!cashout) throw new AppError("not_found");
  if (cashout.status !== from) throw new AppError(error);
  return cashout;
}

/** The held coins back to the purse and to available profit (cancelled, rejected or failed). */
async function returnHeld(tx: Transaction, cashout: Cashout, reason: "cancelled" | "rejected" | "failed") {
  await postLedgerTransaction(tx, {
    idempotencyKey: `cashout_return:${cashout.id}`,
    kind: "cashout_return",
    data: { payoutId: cashout.id, reason },
    entries: [
      { account: payoutHold(cashout.userId), amount: -cashout.amount },
      { account: purse(cashout.userId), amount: cashout.amount },
      { account: available(cashout.userId), amount: cashout.amount },
      { account: incomeAccount, amount: -cashout.amount },
    ],
  });
  tx.invalidate(userTag(cashout.userId));
}

/** The owner cancels a cashout still waiting for review: the coins are available again at once. */
export async function cancelCashout(options: ServiceOptions, userId: number, id: string): Promise<Cashout> {
  await ownCashout(options.db, userId, id);
  await inTransaction(options, async (tx) => {
    const cashout = await lockCashout(tx, id, "requested", "cashout_not_requested");
    await tx.db
      .update(cashouts)
      .set({ status: "cancelled", finishedAt: sql`now()` })
      .where(eq(cashouts.id, id));
    await returnHeld(tx, cashout, "cancelled");
    await emit(tx, { verb: "cashout.cancelled", actorId: userId, subjectId: userId, data: { cashoutId: id, amount: cashout.amount } });
  });
  return (await findCashout(options.db, id))!;
}

/** A site admin approves a requested cashout (audited); the payout job then sends it. */
export async function approveCashout(options: ServiceOptions, staff: Staff, address: string, id: string, reason: string | undefined) {
  const why = (reason ?? "").trim() || "approved";
  await inTransaction(options, async (tx) => {
    const cashout = await lockCashout(tx, id, "requested", "cashout_not_requested");
    await tx.db
      .update(cashouts)
      .set({ status: "approved", deciderId: staff.id, decidedAt: sql`now()` })
      .where(eq(cashouts.id, id));
    await recordAudit(
      tx.db,
      { staff, address },
      { action: "cashout.approve", target: `cashout:${id}`, before: { status: "requested" }, after: { status: "approved" }, reason: why },
    );
    await emit(tx, {
      verb: "cashout.approved",
      actorId: staff.id,
      subjectId: cashout.userId,
      data: { cashoutId: id, amount: cashout.amount },
    });
  });
  return (await findCashout(options.db, id))!;
}

/** A site admin rejects a requested cashout with a reason the owner sees; the coins return (audited). */
export async function rejectCashout(options: ServiceOptions, staff: Staff, address: string, id: string, reason: string | undefined) {
  const why = requireReason(reason);
  await inTransaction(options, async (tx) => {
    const cashout = await lockCashout(tx, id, "requested", "cashout_not_requested");
    await tx.db
      .update(cashouts)
      .set({ status: "rejected", reason: why, deciderId: staff.id, decidedAt: sql`now()`, finishedAt: sql`now()` })
      .where(eq(cashouts.id, id));
    await returnHeld(tx, cashout, "rejected");
    await recordAudit(
      tx.db,
      { staff, address },
      { action: "cashout.reject", target: `cashout:${id}`, before: { status: "requested" }, after: { status: "rejected" }, reason: why },
    );
    await emit(tx, {
      verb: "cashout.rejected",
      actorId: staff.id,
      subjectId: cashout.userId,
      data: { cashoutId: id, amount: cashout.amount, reason: why },
    });
  });
  return (await findCashout(options.db, id))!;
}

function transferOf(cashout: Cashout): PayoutTransfer {
  return {
    id: cashout.id,
    netFen: cashout.netFen,
    payeeKind: cashout.payeeKind,
    payeeAccount: cashout.payeeAccount,
    payeeName: cashout.payeeName,
  };
}

/** Records a final outcome once (a cashout no longer approved is left as it is). Answers whether it changed. */
async function finish(db: Database, id: string, outcome: PayoutOutcome): Promise<boolean> {
  if (outcome.state === "pending") return false;
  return inTransaction({ db }, async (tx) => {
    let cashout: Cashout;
    try {
      cashout = await lockCashout(tx, id, "approved", "cashout_not_approved");
    } catch (error) {
      if (error instanceof AppError && error.code === "cashout_not_approved") return false;
      throw error;
    }
    if (outcome.state === "paid") {
      await tx.db
        .update(cashouts)
        .set({ status: "paid", providerRef: outcome.ref, finishedAt: sql`now()` })
        .where(eq(cashouts.id, id));
      await postLedgerTransaction(tx, {
        idempotencyKey: `cashout:${id}`,
        kind: "cashout",
        data: { payoutId: id },
        entries: [
          { account: payoutHold(cashout.userId), amount: -cashout.amount },
          { account: payouts, amount: cashout.amount },
        ],
      });
      tx.invalidate(userTag(cashout.userId));
      await emit(tx, {
        verb: "cashout.paid",
        actorId: null,
        subjectId: cashout.userId,
        data: { cashoutId: id, amount: cashout.amount, netFen: cashout.netFen },
      });
    } else {
      const reason = outcome.reason.slice(0, 500);
      await tx.db
        .update(cashouts)
        .set({ status: "failed", reason, finishedAt: sql`now()` })
        .where(eq(cashouts.id, id));
      await returnHeld(tx, cashout, "failed");
      await emit(tx, {
        verb: "cashout.failed",
        actorId: null,
        subjectId: cashout.userId,
        data: { cashoutId: id, amount: cashout.amount, reason },
      });
    }
    return true;
  });
}

/**
 * Sends one approved cashout through its provider, or, when a transfer was attempted before (its
 * outcome unknown: a timeout, a crash), asks the provider first and sends again (with the same
 * id) only if the provider never received it. `sent_at` is committed before the first transfer,
 * so a process killed mid-transfer queries on the next run instead of paying twice.
 */
export async function sendCashout(db: Database, id: string): Promise<Cashout["status"]> {
  const claimed = await inTransaction({ db }, async (tx) => {
    const rows = (await tx.db.execute(
      sql`select id from cashouts where id = ${id} and status = 'approved' for update skip locked`,
    )) as unknown as {
      rows: unknown[];
    };
    if (rows.rows.length === 0) return null;
    const [cashout] = await tx.db.select().from(cashouts).where(eq(cashouts.id, id));
    await tx.db
      .update(cashouts)
      .set({ sentAt: sql`coalesce(${cashouts.sentAt}, now())`, attempts: sql`${cashouts.attempts} + 1` })
      .where(eq(cashouts.id, id));
    return { cashout: cashout!, sentBefore: cashout!.sentAt !== null };
  });
  if (!claimed) return (await findCashout(db, id))?.status ?? "approved";
  const provider = payoutProvider(claimed.cashout.provider);
  if (!provider) throw new Error(`payout provider ${claimed.cashout.provider} is not configured`);
  const transfer = transferOf(claimed.cashout);
  let outcome: PayoutOutcome;
  if (claimed.sentBefore) {
    const found = await provider.query(transfer, { db });
    outcome = found.state === "unknown" ? await provider.transfer(transfer, { db }) : found;
  } else {
    outcome = await provider.transfer(transfer, { db });
  }
  await finish(db, id, outcome);
  return (await findCashout(db, id))!.status;
}

/** The payout job's run: every approved cashout, oldest first; one that throws stays approved for the next run. */
export async function sendApprovedCashouts(db: Database, log?: { warn(object: object, message: string): void }): Promise<number> {
  const due = await db
    .select({ id: cashouts.id })
    .from(cashouts)
    .where(eq(cashouts.status, "approved"))
    .orderBy(cashouts.createdAt)
    .limit(100);
  let finished = 0;
  for (const { id } of due) {
    try {
      const status = await sendCashout(db, id);
      if (status !== "approved") finished += 1;
    } catch (error) {
      log?.warn({ cashoutId: id, err: error }, "payout outcome unknown: it is queried before any retry");
    }
  }
  return finished;
}

/**
 * The payout sandbox's tester marks a cashout paid or failed (first mark wins), like a provider's
 * books; an approved cashout takes the outcome at once, as from a provider's notify.
 */
export async function markSandboxPayout(db: Database, userId: number, id: string, outcome: "paid" | "failed"): Promise<Cashout> {
  const cashout = await ownCashout(db, userId, id);
  if (cashout.provider !== "sandbox" || cashout.status !== "approved") throw new AppError("cashout_not_approved");
  await db
    .insert(sandboxPayouts)
    .values({ cashoutId: id, status: outcome, reason: outcome === "failed" ? "sandbox_declined" : null })
    .onConflictDoNothing();
  await inTransaction({ db }, async (tx) => {
    await tx.db
      .update(cashouts)
      .set({ sentAt: sql`coalesce(${cashouts.sentAt}, now())` })
      .where(eq(cashouts.id, id));
  });
  await sendCashout(db, id);
  return (await findCashout(db, id))!;
}

export interface CashoutPage {
  items: Cashout[];
  nextCursor: string | null;
}

function cursorOf(row: Cashout): string {
  return `${row.createdAt.getTime()}_${row.id}`;
}

function afterCursor(cursor: string | undefined) {
  if (!cursor) return undefined;
  const separator = cursor.indexOf("_");
  const at = new Date(Number(cursor.slice(0, separator)));
  const id = cursor.slice(separator + 1);
  return or(lt(cashouts.createdAt, at), and(eq(cashouts.createdAt, at), lt(cashouts.id, id)));
}

/** A user's cashouts, newest first, 20 a page. */
export async function listCashouts(db: Database, userId: number, cursor?: string, limit = 20): Promise<CashoutPage> {
  const rows = await db
    .select()
    .from(cashouts)
    .where(and(eq(cashouts.userId, userId), afterCursor(cursor)))
    .orderBy(desc(cashouts.createdAt), desc(cashouts.id))
    .limit(limit + 1);
  const items = rows.slice(0, limit);
  return { items, nextCursor: rows.length > limit ? cursorOf(items.at(-1)!) : null };
}

/** The admin queue: cashouts waiting for review (oldest first), then the latest decided ones. */
export async function cashoutQueue(db: Database) {
  const columns = { cashout: cashouts, username: users.username, nickname: users.nickname };
  const waiting = await db
    .select(columns)
    .from(cashouts)
    .innerJoin(users, eq(users.id, cashouts.userId))
    .where(eq(cashouts.status, "requested"))
    .orderBy(cashouts.createdAt)
    .limit(100);
  const recent = await db
    .select(columns)
    .from(cashouts)
    .innerJoin(users, eq(users.id, cashouts.userId))
    .where(sql`${cashouts.status} <> 'requested'`)
    .orderBy(desc(cashouts.createdAt))
    .limit(30);
  return { waiting, recent };
}
