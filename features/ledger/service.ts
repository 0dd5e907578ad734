import { eq, inArray, sql } from "drizzle-orm";
import type { Database, Executor } from "../../server/db/client.ts";
import { ledgerAccounts, ledgerEntries, ledgerTransactions, users } from "../../server/db/schema/index.ts";
import type { ledgerCurrencies, ledgerHolds } from "../../server/db/schema/ledger.ts";
import type { Transaction } from "../../server/lib/transactions.ts";
import { AppError } from "../../common/app-error.ts";
import { forgetSessionsOf } from "../accounts/session-cache.server.ts";
import { ledgerKinds, type LedgerData, type LedgerKind } from "./kinds.ts";

/** The spendable currencies (`profit` is the ledger's memo of income, never spent). */
export type Currency = Exclude<(typeof ledgerCurrencies)[number], "profit">;
type AnyCurrency = (typeof ledgerCurrencies)[number];
export type LedgerHold = Exclude<(typeof ledgerHolds)[number], "purse">;

/**
 * A ledger account: a user's purse of one currency, one of a user's holds (`pending`, `available`,
 * `debt` in profit, `payout_hold` in sinecoin), or a named system account (`checkin_rewards`).
 */
export type LedgerAccount = { userId: number; currency: AnyCurrency; hold?: LedgerHold } | { system: string; currency: AnyCurrency };

/** The contra account of every profit hold: income counted in, settled, reversed or paid out. */
export const incomeAccount: LedgerAccount = { system: "income", currency: "profit" };

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
  if (!("userId" in account)) return `system:${account.system}:${account.currency}`;
  return account.hold ? `user:${account.userId}:${account.currency}:${account.hold}` : `user:${account.userId}:${account.currency}`;
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
  const entries = [...input.entries, ...(await incomeHoldEntries(tx, input))];
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
    entries.map((entry) => entry.account),
  );
  await tx.db.insert(ledgerEntries).values(
    entries.map((entry) => ({
      transactionId: created.id,
      accountId: accountIds.get(accountKey(entry.account))!,
      amount: entry.amount,
    })),
  );
  await moveCachedBalances(tx, { ...input, entries });
  return { transactionId: created.id, posted: true };
}

/** Net purse sinecoin per user in a posting. */
function purseNets(entries: LedgerEntryInput[]): Map<number, number> {
  const nets = new Map<number, number>();
  for (const { account, amount } of entries)
    if ("userId" in account && !account.hold && account.currency === "sinecoin")
      nets.set(account.userId, (nets.get(account.userId) ?? 0) + amount);
  return nets;
}

/**
 * The profit holds a posting moves, derived from its kind's `income` declaration: cashable income
 * lands in the receiver's `pending` hold (the settlement job later moves it to `available`); a
 * reversal takes what the payer gives back from `pending` first (a refund inside the window), then
 * from `available`, and what neither holds becomes `debt`, recovered from future settlements. The
 * payer's row is locked first so two reversals cannot both take the same hold below zero.
 */
async function incomeHoldEntries(tx: Transaction, input: LedgerTransactionInput): Promise<LedgerEntryInput[]> {
  const income = ledgerKinds[input.kind].income;
  if (!income?.cashable) return [];
  const entries: LedgerEntryInput[] = [];
  const nets = [...purseNets(input.entries)].sort(([a], [b]) => a - b);
  for (const [userId, net] of nets) {
    if (!income.reverses && net > 0) {
      entries.push({ account: { userId, currency: "profit", hold: "pending" }, amount: net }, { account: incomeAccount, amount: -net });
    }
    if (income.reverses && net < 0) {
      await tx.db.execute(sql`select id from users where id = ${userId} for update`);
      let owed = -net;
      for (const hold of ["pending", "available"] as const) {
        const taken = Math.min(owed, Math.max(0, await ledgerBalance(tx.db, { userId, currency: "profit", hold })));
        if (taken > 0) entries.push({ account: { userId, currency: "profit", hold }, amount: -taken });
        owed -= taken;
      }
      if (owed > 0) entries.push({ account: { userId, currency: "profit", hold: "debt" }, amount: -owed });
      entries.push({ account: incomeAccount, amount: -net });
    }
  }
  return entries;
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
  const moves = new Map<number, { gold: number; sinecoin: number; held: number; profit: number; cashout: number }>();
  for (const { account, amount } of input.entries) {
    if (!("userId" in account)) continue;
    const move = moves.get(account.userId) ?? { gold: 0, sinecoin: 0, held: 0, profit: 0, cashout: 0 };
    if (!account.hold && account.currency !== "profit") move[account.currency] += amount;
    if (account.hold === "payout_hold") move.held += amount;
    moves.set(account.userId, move);
  }
  const paysOut = ledgerKinds[input.kind].paysOut;
  for (const userId of [...moves.keys()].sort((a, b) => a - b)) {
    const move = moves.get(userId)!;
    move.profit = profitMove(input.kind, move.sinecoin);
    // A payout leaves from the purse or from the payout hold it was moved into when requested.
    if (paysOut && move.sinecoin + move.held < 0) move.cashout = -(move.sinecoin + move.held);
    const available = sql.raw(`'${accountKey({ userId, currency: "profit", hold: "available" })}'`);
    try {
      await tx.db
        .update(users)
        .set({
          gold: sql`${users.gold} + ${move.gold}`,
          sinecoin: sql`${users.sinecoin} + ${move.sinecoin}`,
          // A reversal never takes profit below zero (it only takes back income once counted).
          sinecoinTotalProfit: sql`greatest(0, ${users.sinecoinTotalProfit} + ${move.profit})`,
          sinecoinTotalCashout: sql`${users.sinecoinTotalCashout} + ${move.cashout}`,
          // What may be cashed out: settled profit (the `available` hold), never more than the balance.
          cashoutableSinecoinProfit: sql`greatest(0, least(${users.sinecoin} + ${move.sinecoin}, (select coalesce(sum(e.amount), 0) from ledger_entries e join ledger_accounts a on a.id = e.account_id where a.key = ${available})))`,
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
  const sums = new Map<AnyCurrency, number>();
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
    hold: ("userId" in account ? (account.hold ?? "purse") : "purse") as LedgerHold | "purse",
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
