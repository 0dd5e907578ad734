import { eq, inArray, sql } from "drizzle-orm";
import type { Database, Executor } from "../../server/db/client.ts";
import { ledgerAccounts, ledgerEntries, ledgerTransactions, users } from "../../server/db/schema/index.ts";
import type { currencies } from "../../server/db/schema/ledger.ts";
import type { Transaction } from "../../server/lib/transactions.ts";
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

/** Cached balance columns on users, kept equal to the sum of the user's entries (see postLedgerTransaction). */
const cachedBalance = { gold: users.gold, sinecoin: users.sinecoin } as const;

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
  for (const entry of input.entries) {
    if (!("userId" in entry.account)) continue;
    const column = cachedBalance[entry.account.currency];
    await tx.db
      .update(users)
      .set({ [entry.account.currency]: sql`${column} + ${entry.amount}` })
      .where(eq(users.id, entry.account.userId));
    // The balance is part of the auth answer remembered with the user's sessions.
    const userId = entry.account.userId;
    tx.afterCommit(() => forgetSessionsOf(userId));
  }
  return { transactionId: created.id, posted: true };
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
