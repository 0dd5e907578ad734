import { sql } from "drizzle-orm";
import type { Executor } from "../../server/db/client.ts";
import type { Viewer } from "../accounts/viewer.ts";
import { incomeSources, ledgerKindNames, ledgerKinds, type IncomeSource } from "../ledger/kinds.ts";
import type { DayRange } from "../metrics/rollups.ts";
import { daysOf } from "./range.ts";

/**
 * A creator's income over a range of Asia/Shanghai days, by source, per day and per piece, in
 * whole sinecoin. Read from the ledger itself (the user's sinecoin account's entries), with each
 * transaction's source from its typed kind (`ledgerKinds[kind].income`, features/ledger/kinds.ts):
 * so every figure is the ledger's, exactly, and a refund is negative on the day it was paid back.
 * Per piece: the kinds whose data name the subject (a tip's `subjectType`/`subjectId`, an unlock's
 * `writingId`). Only the side of the author the transaction names (the tipper's own debit of a
 * tip is spending, not negative income); kinds naming no author count their credits.
 */

/** The API's names of the sources (`unlocks` is pay-to-view, `rewards` programme rewards). */
export const profitSources = ["tips", "unlocks", "ads", "missions", "rewards"] as const satisfies readonly IncomeSource[];
export type ProfitFigures = Record<IncomeSource | "total", number>;

export interface ProfitItem extends ProfitFigures {
  type: string;
  id: number;
  title: string;
  url: string;
}

export interface ProfitAnalysis {
  days: ({ day: string } & ProfitFigures)[];
  totals: ProfitFigures;
  items: ProfitItem[];
}

/** `CASE kind WHEN … THEN 'tips' … END`: the source of each income kind, made from the kinds' declarations. */
function sourceOfKind() {
  const cases = ledgerKindNames.flatMap((name) => {
    const income = ledgerKinds[name].income;
    return income ? [sql`when ${name} then ${income.source}`] : [];
  });
  return sql`(case t.kind ${sql.join(cases, sql` `)} end)`;
}

function zeros(): ProfitFigures {
  return { tips: 0, unlocks: 0, ads: 0, missions: 0, rewards: 0, total: 0 };
}

type Rows = { rows: Record<string, unknown>[] };

export async function profitAnalysis(db: Executor, viewer: Viewer, range: DayRange): Promise<ProfitAnalysis> {
  const result = (await db.execute(sql`
    select to_char(shanghai_day(t.created_at), 'YYYY-MM-DD') as day, ${sourceOfKind()} as source,
      coalesce(t.data->>'subjectType', case when t.data ? 'writingId' then 'writing' end) as subject_type,
      coalesce(t.data->>'subjectId', t.data->>'writingId')::int as subject_id,
      max(t.data->>'title') as title, max(t.data->>'path') as path, sum(e.amount)::int as amount
    from ledger_entries e
      join ledger_accounts a on a.id = e.account_id
      join ledger_transactions t on t.id = e.transaction_id
    where a.key = ${`user:${viewer.id}:sinecoin`} and ${sourceOfKind()} is not null
      and coalesce((t.data->>'authorId')::int = ${viewer.id}, e.amount > 0)
      and t.created_at >= (${range.from}::date::timestamp at time zone 'Asia/Shanghai')
      and t.created_at < ((${range.to}::date + 1)::timestamp at time zone 'Asia/Shanghai')
    group by 1, 2, 3, 4`)) as unknown as Rows;
  const byDay = new Map<string, ProfitFigures>();
  const byItem = new Map<string, ProfitItem>();
  const totals = zeros();
  for (const row of result.rows) {
    const source = String(row.source) as IncomeSource;
    if (!incomeSources.includes(source)) continue;
    const amount = Number(row.amount);
    const day = byDay.get(String(row.day)) ?? zeros();
    byDay.set(String(row.day), day);
    day[source] += amount;
    day.total += amount;
    totals[source] += amount;
    totals.total += amount;
    if (row.subject_type !== null && row.subject_id !== null) {
      const key = `${String(row.subject_type)}:${Number(row.subject_id)}`;
      const item = byItem.get(key) ?? {
        type: String(row.subject_type),
        id: Number(row.subject_id),
        title: String(row.title ?? ""),
        url: String(row.path ?? ""),
        ...zeros(),
      };
      byItem.set(key, item);
      item[source] += amount;
      item.total += amount;
    }
  }
  return {
    days: daysOf(range).map((day) => ({ day, ...(byDay.get(day) ?? zeros()) })),
    totals,
    items: [...byItem.values()].sort((a, b) => b.total - a.total || a.type.localeCompare(b.type) || a.id - b.id),
  };
}
