import { eq, inArray, sql } from "drizzle-orm";
import type { Database, Executor } from "../../server/db/client.ts";
import { ledgerAccounts, ledgerEntries, ledgerTransactions, users } from "../../server/db/schema/index.ts";
import type { currencies } from "../../server/db/schema/ledger.ts";
import type { Transaction } from "../../server/lib/transactions.ts";
import { AppError } from "../../common/app-error.ts";
import { forgetSessionsOf } from "../accounts/session-cache.server.ts";
import { ledgerKinds, type LedgerData, type LedgerKind } from "./kinds.ts";

export type Currency = (typeof currencies)[number];

/** A ledger account: a user's purse of one currency, or a named system account (`checkin_rewards`). */
export type LedgerAccount = { userId: number; currency: Currency } | { system: string; currency: Currency };

export interface LedgerEntryInput {
  account: LedgerAccount;
  /** Integer units; positive credits the account, negative debits it. */
  amount: number;
}

/** One posting: its kind (`kinds.ts`) decides the shape of its `data`, checked before anything is written. */
export type LedgerTransactionInput = {
  [Kind in LedgerKind]: {
    /** The same key twice posts once: a retried request cannot pay twice. */
    idempotencyKey: string;
    kind: Kind;
    entries: LedgerEntryInput[];
    data: LedgerData<Kind>;
  };
}[LedgerKind];

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
  const definition = ledgerKinds[input.kind];
  if (!definition) throw new Error(`unknown ledger kind ${String(input.kind)}`);
  const data = definition.data.parse(input.data) as Record<string, unknown>;
  const [created] = await tx.db
    .insert(ledgerTransactions)
    .values({ idempotencyKey: input.idempotencyKey, kind: input.kind, data })
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
 * How one posting moves a user's profit, by its kind's `income` declaration (`kinds.ts`): a
 * cashable kind adds what the user gained in it, a reversing one takes back what the user paid in
 * it. Gains and payments are netted per user and transaction, so nothing a user moves to
 * themselves is profit. `checkLedger` sums the same way.
 */
function profitMove(kind: LedgerKind, netSinecoin: number): number {
  const income = ledgerKinds[kind].income;
  if (!income?.cashable) return 0;
  if (income.reverses) return netSinecoin < 0 ? netSinecoin : 0;
  return netSinecoin > 0 ? netSinecoin : 0;
}

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
    moves.set(entry.account.userId, move);
  }
  const paysOut = ledgerKinds[input.kind].paysOut;
  for (const userId of [...moves.keys()].sort((a, b) => a - b)) {
    const move = moves.get(userId)!;
    move.profit = profitMove(input.kind, move.sinecoin);
    if (paysOut && move.sinecoin < 0) move.cashout = -move.sinecoin;
    try {
      await tx.db
        .update(users)
        .set({
          gold: sql`${users.gold} + ${move.gold}`,
          sinecoin: sql`${users.sinecoin} + ${move.sinecoin}`,
          // A reversal never takes profit below zero (it only takes back income once counted).
          sinecoinTotalProfit: sql`greatest(0, ${users.sinecoinTotalProfit} + ${move.profit})`,
          sinecoinTotalCashout: sql`${users.sinecoinTotalCashout} + ${move.cashout}`,
          // What may be cashed out: profit not yet paid out, never more than the balance.
          cashoutableSinecoinProfit: sql`greatest(0, least(${users.sinecoin} + ${move.sinecoin}, greatest(0, ${users.sinecoinTotalProfit} + ${move.profit}) - ${users.sinecoinTotalCashout} - ${move.cashout}))`,
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
