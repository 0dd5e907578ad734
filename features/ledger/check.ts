import { sql } from "drizzle-orm";
import type { Database, Executor } from "../../server/db/client.ts";
import { cashoutKinds, profitKinds, profitReversalKinds } from "./kinds.ts";

export interface LedgerCheckReport {
  /** Transactions whose entries do not sum to zero in some currency. */
  unbalancedTransactions: number[];
  /** Transactions with fewer than two entries. */
  incompleteTransactions: number[];
  /** Users whose cached balances differ from the sums of their entries. */
  mismatchedUsers: { userId: number; field: string; cached: number; ledger: number }[];
  transactions: number;
  entries: number;
}

async function rows<T>(db: Database | Executor, query: ReturnType<typeof sql>): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

function list(values: string): string {
  return `array[${values}]::text[]`;
}

/**
 * The ledger's consistency check (`npm run admin -- ledger-check`): every transaction balances per
 * currency and has at least two entries; every user's cached gold, sinecoin, profit and cashout
 * equal the sums of the user's entries. Profit is summed as postings move it (`kinds.ts`): per
 * transaction and user the net sinecoin, gains of cashable kinds added, payments of reversing
 * kinds taken back, never below zero; a red-packet share or one's own money is never profit.
 */
export async function checkLedger(db: Database | Executor): Promise<LedgerCheckReport> {
  const unbalanced = await rows<{ id: string }>(
    db,
    sql`
    select e.transaction_id as id from ledger_entries e join ledger_accounts a on a.id = e.account_id
    group by e.transaction_id, a.currency having sum(e.amount) <> 0`,
  );
  const incomplete = await rows<{ id: string }>(
    db,
    sql`
    select t.id from ledger_transactions t left join ledger_entries e on e.transaction_id = t.id
    group by t.id having count(e.id) < 2`,
  );
  const profit = sql.raw(list([...profitKinds].map((kind) => `'${kind}'`).join(",")));
  const reversal = sql.raw(list([...profitReversalKinds].map((kind) => `'${kind}'`).join(",")));
  const cashout = sql.raw(list([...cashoutKinds].map((kind) => `'${kind}'`).join(",")));
  const mismatched = await rows<{
    user_id: number;
    gold: number;
    sinecoin: number;
    profit: number;
    cashout: number;
    l_gold: string;
    l_sinecoin: string;
    l_profit: string;
    l_cashout: string;
  }>(
    db,
    sql`
    with nets as (
      select a.user_id, t.kind,
        sum(e.amount) filter (where a.currency = 'gold') as gold,
        sum(e.amount) filter (where a.currency = 'sinecoin') as sinecoin
      from ledger_accounts a
      join ledger_entries e on e.account_id = a.id
      join ledger_transactions t on t.id = e.transaction_id
      where a.user_id is not null
      group by a.user_id, t.id, t.kind
    ), sums as (
      select user_id,
        coalesce(sum(gold), 0) as l_gold,
        coalesce(sum(sinecoin), 0) as l_sinecoin,
        greatest(0, coalesce(sum(sinecoin) filter (where sinecoin > 0 and kind = any(${profit})), 0)
          + coalesce(sum(sinecoin) filter (where sinecoin < 0 and kind = any(${reversal})), 0)) as l_profit,
        coalesce(-sum(sinecoin) filter (where sinecoin < 0 and kind = any(${cashout})), 0) as l_cashout
      from nets
      group by user_id
    )
    select u.id as user_id, u.gold, u.sinecoin, u.sinecoin_total_profit as profit, u.sinecoin_total_cashout as cashout,
      coalesce(s.l_gold, 0) as l_gold, coalesce(s.l_sinecoin, 0) as l_sinecoin, coalesce(s.l_profit, 0) as l_profit, coalesce(s.l_cashout, 0) as l_cashout
    from users u left join sums s on s.user_id = u.id
    where u.gold <> coalesce(s.l_gold, 0) or u.sinecoin <> coalesce(s.l_sinecoin, 0)
      or u.sinecoin_total_profit <> coalesce(s.l_profit, 0) or u.sinecoin_total_cashout <> coalesce(s.l_cashout, 0)`,
  );
  const mismatchedUsers: LedgerCheckReport["mismatchedUsers"] = [];
  for (const row of mismatched) {
    for (const [field, cached, ledger] of [
      ["gold", row.gold, row.l_gold],
      ["sinecoin", row.sinecoin, row.l_sinecoin],
      ["sinecoin_total_profit", row.profit, row.l_profit],
      ["sinecoin_total_cashout", row.cashout, row.l_cashout],
    ] as const) {
      if (Number(cached) !== Number(ledger))
        mismatchedUsers.push({ userId: Number(row.user_id), field, cached: Number(cached), ledger: Number(ledger) });
    }
  }
  const [counts] = await rows<{ transactions: string; entries: string }>(
    db,
    sql`select (select count(*) from ledger_transactions) as transactions, (select count(*) from ledger_entries) as entries`,
  );
  return {
    unbalancedTransactions: [...new Set(unbalanced.map((row) => Number(row.id)))],
    incompleteTransactions: incomplete.map((row) => Number(row.id)),
    mismatchedUsers,
    transactions: Number(counts?.transactions ?? 0),
    entries: Number(counts?.entries ?? 0),
  };
}

export function ledgerIsConsistent(report: LedgerCheckReport): boolean {
  return report.unbalancedTransactions.length === 0 && report.incompleteTransactions.length === 0 && report.mismatchedUsers.length === 0;
}
