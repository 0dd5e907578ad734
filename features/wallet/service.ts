import { and, desc, eq, gte, inArray, lt, sql } from "drizzle-orm";
import type { Database } from "../../server/db/client.ts";
import { ledgerAccounts, ledgerEntries, ledgerTransactions, payoutAccounts, users } from "../../server/db/schema/index.ts";
import { AppError } from "../../common/app-error.ts";
import { onceByKey, requireIdempotencyKey } from "../../server/lib/idempotency.ts";
import { inTransaction, type ServiceOptions } from "../../server/lib/transactions.ts";
import { userTag } from "../../server/lib/cache-tags.ts";
import { postLedgerTransaction } from "../ledger/service.ts";
import { emit } from "../events/bus.ts";
import type { Currency } from "../ledger/service.ts";
import type { MovementKind, TransactionsQuery } from "./schema.ts";
import { economySettings } from "./settings.ts";

export interface WalletSummary {
  gold: number;
  sinecoin: number;
  sinecoinTotalProfit: number;
  sinecoinTotalCashout: number;
  cashoutableSinecoinProfit: number;
}

/** The balances of spec §3: cached on the users row in the same transaction as every entry (`npm run admin -- ledger-check` proves it). */
export async function walletSummary(db: Database, userId: number): Promise<WalletSummary> {
  const [row] = await db
    .select({
      gold: users.gold,
      sinecoin: users.sinecoin,
      sinecoinTotalProfit: users.sinecoinTotalProfit,
      sinecoinTotalCashout: users.sinecoinTotalCashout,
      cashoutableSinecoinProfit: users.cashoutableSinecoinProfit,
    })
    .from(users)
    .where(eq(users.id, userId));
  if (!row) throw new AppError("not_found");
  return row;
}

/** One line of the wallet: one entry of one of the user's accounts, with what its transaction was. */
export interface WalletMovement {
  id: number;
  transactionId: number;
  kind: string;
  currency: Currency;
  /** Positive in, negative out. */
  amount: number;
  createdAt: Date;
  /** What it is about, as the posting described it (`title`, `path`, `counterparty`…). */
  data: Record<string, unknown>;
}

export interface MovementPage {
  items: WalletMovement[];
  nextCursor: string | null;
}

/** The month's first instant in Asia/Shanghai (UTC+8, no daylight saving). */
function monthStart(month: string): Date {
  return new Date(`${month}-01T00:00:00+08:00`);
}

function nextMonth(month: string): string {
  const [year, number] = month.split("-").map(Number) as [number, number];
  return number === 12 ? `${year + 1}-01` : `${year}-${String(number + 1).padStart(2, "0")}`;
}

/**
 * The user's wallet lines, newest first, 20 a page (`cursor`: the last line's id); filtered by
 * currency, kind, month, or only what came in (`incoming`: tips and red packets received).
 */
export async function listMovements(
  db: Database,
  userId: number,
  query: TransactionsQuery & { incoming?: readonly MovementKind[] },
  limit = 20,
): Promise<MovementPage> {
  // The purse only: the profit holds are the ledger's memo, not money moving in the wallet.
  const conditions = [eq(ledgerAccounts.userId, userId), eq(ledgerAccounts.hold, "purse")];
  if (query.currency) conditions.push(eq(ledgerAccounts.currency, query.currency));
  if (query.kind) conditions.push(eq(ledgerTransactions.kind, query.kind));
  if (query.incoming) conditions.push(inArray(ledgerTransactions.kind, [...query.incoming]), sql`${ledgerEntries.amount} > 0`);
  if (query.month) {
    conditions.push(
      gte(ledgerTransactions.createdAt, monthStart(query.month)),
      lt(ledgerTransactions.createdAt, monthStart(nextMonth(query.month))),
    );
  }
  if (query.cursor) conditions.push(lt(ledgerEntries.id, Number(query.cursor)));
  const rows = await db
    .select({
      id: ledgerEntries.id,
      transactionId: ledgerTransactions.id,
      kind: ledgerTransactions.kind,
      currency: sql<"gold" | "sinecoin">`${ledgerAccounts.currency}`,
      amount: ledgerEntries.amount,
      createdAt: ledgerTransactions.createdAt,
      data: ledgerTransactions.data,
    })
    .from(ledgerEntries)
    .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, ledgerEntries.accountId))
    .innerJoin(ledgerTransactions, eq(ledgerTransactions.id, ledgerEntries.transactionId))
    .where(and(...conditions))
    .orderBy(desc(ledgerEntries.id))
    .limit(limit + 1);
  const items = rows.slice(0, limit);
  return { items, nextCursor: rows.length > limit ? String(items.at(-1)!.id) : null };
}

export interface ExchangeResult {
  gold: number;
  sinecoin: number;
  exchangedGold: number;
  receivedSinecoin: number;
}

/** The system account that buys gold back and issues sinecoin for it. */
const exchangeDesk = { gold: { system: "exchange", currency: "gold" }, sinecoin: { system: "exchange", currency: "sinecoin" } } as const;

/**
 * Gold for sinecoin at the configured rate (`GOLD_PER_SINECOIN`): only whole sinecoin, so the gold
 * given is a multiple of the rate (a remainder is refused, not kept). One balanced transaction with
 * both currencies; a balance that would go below zero is `insufficient_balance`.
 */
export async function exchangeGold(
  options: ServiceOptions,
  userId: number,
  gold: number,
  idempotencyKey: string | undefined,
): Promise<ExchangeResult> {
  const key = requireIdempotencyKey(idempotencyKey);
  const rate = economySettings.goldPerSinecoin;
  if (gold % rate !== 0) throw new AppError("validation_failed", { fields: { gold: "validation:exchange_multiple" }, params: { rate } });
  const sinecoin = gold / rate;
  return inTransaction(options, (tx) =>
    onceByKey(tx, { userId, key, operation: "exchange", input: { gold } }, async () => {
      await postLedgerTransaction(tx, {
        idempotencyKey: `exchange:${userId}:${key}`,
        kind: "exchange",
        data: { rate },
        entries: [
          { account: { userId, currency: "gold" }, amount: -gold },
          { account: exchangeDesk.gold, amount: gold },
          { account: { userId, currency: "sinecoin" }, amount: sinecoin },
          { account: exchangeDesk.sinecoin, amount: -sinecoin },
        ],
      });
      await emit(tx, { verb: "gold.exchanged", actorId: userId, subjectId: userId, data: { gold, sinecoin, rate } });
      const [row] = await tx.db.select({ gold: users.gold, sinecoin: users.sinecoin }).from(users).where(eq(users.id, userId));
      tx.invalidate(userTag(userId));
      return { gold: row!.gold, sinecoin: row!.sinecoin, exchangedGold: gold, receivedSinecoin: sinecoin };
    }),
  );
}

export interface PayoutAccount {
  provider: "alipay" | "wechat";
  /** The Alipay login or the WeChat openid (stored in `alipay_account`, the column's first name). */
  account: string;
  realName: string;
}

export async function getPayoutAccount(db: Database, userId: number): Promise<PayoutAccount | null> {
  const [row] = await db
    .select({ provider: payoutAccounts.provider, account: payoutAccounts.alipayAccount, realName: payoutAccounts.realName })
    .from(payoutAccounts)
    .where(eq(payoutAccounts.userId, userId));
  return row ?? null;
}

export async function savePayoutAccount(options: ServiceOptions, userId: number, account: PayoutAccount): Promise<PayoutAccount> {
  const values = { provider: account.provider, alipayAccount: account.account, realName: account.realName };
  return inTransaction(options, async (tx) => {
    await tx.db
      .insert(payoutAccounts)
      .values({ userId, ...values })
      .onConflictDoUpdate({ target: payoutAccounts.userId, set: { ...values, updatedAt: sql`now()` } });
    return account;
  });
}

/** `138****8000`, `ab***@example.com`: enough to recognise, not enough to use. */
export function maskAccount(account: string): string {
  const at = account.indexOf("@");
  if (at > 0) return `${account.slice(0, Math.min(2, at))}***${account.slice(at)}`;
  return account.length > 7 ? `${account.slice(0, 3)}****${account.slice(-4)}` : `${account.slice(0, 1)}***`;
}

/** `*三`, `**明`: only the last character of the real name. */
export function maskName(name: string): string {
  const characters = [...name];
  return `${"*".repeat(Math.max(1, characters.length - 1))}${characters.at(-1) ?? ""}`;
}
