import { eq, inArray, sql } from "drizzle-orm";
import type { Database, Executor } from "../../server/db/client.ts";
import { ledgerAccounts, ledgerEntries, ledgerTransactions, users } from "../../server/db/schema/index.ts";
import type { currencies } from "../../server/db/schema/ledger.ts";
import type { Transaction } from "../../server/lib/transactions.ts";
import { AppError } from "../../common/app-error.ts";
import { forgetSessionsOf } from "../accounts/session-cache.server.ts";

export type Currency = (typeof currencies)[number];

/** A ledger account: a user's purse of one currency, or a named system account (`checkin_rewards`). */
export type LedgerAccount = { userId: number; currency: Currency } | { system: string; currency: Currency };

export interface LedgerEntryInput {
  account: LedgerAccount;
  /** Integer units; positive credits the account, negative debits it. */
  amount: number;
}

export interface LedgerTransactionInput {
  /** The same key twice posts once: a retried request cannot pay twice. */
  idempotencyKey: string;
  kind: string;
  entries: LedgerEntryInput[];
  data?: Record<string, unknown>;
}

export function accountKey(account: LedgerAccount): string {
  return "userId" in account ? `user:${account.userId}:${account.currency}` : `system:${account.system}:${account.currency}`;
}

export class UnbalancedLedgerTransaction extends Error {}

/**
 * Posts one balanced transaction inside the caller's database transaction: the entries must be
 * integers, non-zero, and sum to zero per currency. A user's cached balance (`users.gold`,
 * `users.sinecoin`) moves in the same transaction. Returns the transaction id and whether it was
 * new (false when this idempotency key was posted before: nothing is written again).
 */
export async function postLedgerTransaction(
  tx: Transaction,
  input: LedgerTransactionInput,
): Promise<{ transactionId: number; posted: boolean }> {
  assertBalanced(input.entries);
  const [created] = await tx.db
    .insert(ledgerTransactions)
    .values({ idempotencyKey: input.idempotencyKey, kind: input.kind, data: input.data ?? {} })
    .onConflictDoNothing({ target: ledgerTransactions.idempotencyKey })
    .returning({ id: ledgerTransactions.id });
  if (!created) {
    const [existing] = await tx.db
      .select({ id: ledgerTransactions.id })
      .from(ledgerTransactions)
      .where(eq(ledgerTransactions.idempotencyKey, input.idempotencyKey));
    return { transactionId: existing!.id, posted: false };
  }
  const accountIds = await ensureAccounts(
    tx.db,
    input.entries.map((entry) => entry.account),
  );
  await tx.db.insert(ledgerEntries).values(
    input.entries.map((entry) => ({
      transactionId: created.id,
      accountId: accountIds.get(accountKey(entry.account))!,
      amount: entry.amount,
    })),
  );
  await moveCachedBalances(tx, input);
  return { transactionId: created.id, posted: true };
}

/**
 * The ledger kinds whose sinecoin credits are the user's profit (what cashouts may pay out):
 * tips received, unlocks of one's paid writings, red-packet shares claimed.
 */
export const profitKinds: ReadonlySet<string> = new Set(["tip", "unlock", "red_packet_claim"]);
/** Kinds that pay profit out (cashouts; none yet). */
export const cashoutKinds: ReadonlySet<string> = new Set(["cashout"]);

/**
 * Moves the users rows of the entries in one UPDATE each, in user id order (two transfers between
 * the same two users lock in the same order: no deadlock). The row's check constraint
 * (`users_balances_nonnegative`) refuses a balance below zero: the whole posting fails with
 * `insufficient_balance`, so a balance is never read and then written (no race to overdraw).
 */
async function moveCachedBalances(tx: Transaction, input: LedgerTransactionInput): Promise<void> {
  const moves = new Map<number, { gold: number; sinecoin: number; profit: number; cashout: number }>();
  for (const entry of input.entries) {
    if (!("userId" in entry.account)) continue;
    const move = moves.get(entry.account.userId) ?? { gold: 0, sinecoin: 0, profit: 0, cashout: 0 };
    move[entry.account.currency] += entry.amount;
    if (entry.account.currency === "sinecoin" && entry.amount > 0 && profitKinds.has(input.kind)) move.profit += entry.amount;
    if (entry.account.currency === "sinecoin" && entry.amount < 0 && cashoutKinds.has(input.kind)) move.cashout -= entry.amount;
    moves.set(entry.account.userId, move);
  }
  for (const userId of [...moves.keys()].sort((a, b) => a - b)) {
    const move = moves.get(userId)!;
    try {
      await tx.db
        .update(users)
        .set({
          gold: sql`${users.gold} + ${move.gold}`,
          sinecoin: sql`${users.sinecoin} + ${move.sinecoin}`,
          sinecoinTotalProfit: sql`${users.sinecoinTotalProfit} + ${move.profit}`,
          sinecoinTotalCashout: sql`${users.sinecoinTotalCashout} + ${move.cashout}`,
          // What may be cashed out: profit not yet paid out, never more than the balance.
          cashoutableSinecoinProfit: sql`greatest(0, least(${users.sinecoin} + ${move.sinecoin}, ${users.sinecoinTotalProfit} + ${move.profit} - ${users.sinecoinTotalCashout} - ${move.cashout}))`,
        })
        .where(eq(users.id, userId));
    } catch (error) {
      if (isCheckViolation(error)) throw new AppError("insufficient_balance");
      throw error;
    }
    // The balance is part of the auth answer remembered with the user's sessions.
    tx.afterCommit(() => forgetSessionsOf(userId));
  }
}

function isCheckViolation(error: unknown): boolean {
  const code = (error as { code?: string })?.code ?? (error as { cause?: { code?: string } })?.cause?.code;
  return code === "23514";
}

function assertBalanced(entries: LedgerEntryInput[]): void {
  if (entries.length < 2) throw new UnbalancedLedgerTransaction("a ledger transaction needs at least two entries");
  const sums = new Map<Currency, number>();
  for (const entry of entries) {
    if (!Number.isSafeInteger(entry.amount) || entry.amount === 0) throw new UnbalancedLedgerTransaction(`invalid amount ${entry.amount}`);
    sums.set(entry.account.currency, (sums.get(entry.account.currency) ?? 0) + entry.amount);
  }
  for (const [currency, sum] of sums) if (sum !== 0) throw new UnbalancedLedgerTransaction(`${currency} entries sum to ${sum}`);
}

/** Account ids by key, creating missing accounts (concurrent creators meet on the unique key). */
async function ensureAccounts(db: Executor, accounts: LedgerAccount[]): Promise<Map<string, number>> {
  const rows = accounts.map((account) => ({
    key: accountKey(account),
    userId: "userId" in account ? account.userId : null,
    currency: account.currency,
  }));
  await db.insert(ledgerAccounts).values(rows).onConflictDoNothing({ target: ledgerAccounts.key });
  const found = await db
    .select({ id: ledgerAccounts.id, key: ledgerAccounts.key })
    .from(ledgerAccounts)
    .where(
      inArray(
        ledgerAccounts.key,
        rows.map((row) => row.key),
      ),
    );
  return new Map(found.map((row) => [row.key, row.id]));
}

/** The balance of one account: the sum of its entries (0 for an account that has none). */
export async function ledgerBalance(db: Database | Executor, account: LedgerAccount): Promise<number> {
  const [row] = await db
    .select({ balance: sql<string>`coalesce(sum(${ledgerEntries.amount}), 0)` })
    .from(ledgerEntries)
    .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, ledgerEntries.accountId))
    .where(eq(ledgerAccounts.key, accountKey(account)));
  return Number(row?.balance ?? 0);
}

/** Ids of transactions whose entries do not sum to zero per currency: always empty unless something is broken. */
export async function unbalancedLedgerTransactions(db: Database | Executor): Promise<number[]> {
  const rows = await db
    .select({ id: ledgerEntries.transactionId })
    .from(ledgerEntries)
    .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, ledgerEntries.accountId))
    .groupBy(ledgerEntries.transactionId, ledgerAccounts.currency)
    .having(sql`sum(${ledgerEntries.amount}) <> 0`);
  return rows.map((row) => Number(row.id));
}
