import { sql } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "../../server/db/client.ts";
import { incomeSources, ledgerKindNames, ledgerKinds, type IncomeSource } from "../ledger/kinds.ts";
import { settlementSettings } from "../settlement/settings.ts";

export const incomeQuerySchema = z.object({
  /** The last line's transaction id of the previous page. */
  cursor: z
    .string()
    .regex(/^\d{1,15}$/)
    .optional(),
});
export type IncomeQuery = z.infer<typeof incomeQuerySchema>;

export interface IncomeLine {
  id: number;
  kind: string;
  source: IncomeSource;
  amount: number;
  createdAt: Date;
  counterparty: string | null;
  title: string | null;
  url: string | null;
  status: "pending" | "available";
  availableAt: Date;
}

export interface IncomePage {
  items: IncomeLine[];
  nextCursor: string | null;
}

type Rows<T> = { rows: T[] };
const day = 24 * 60 * 60 * 1000;

/** The kinds that are cashable income, or reverse it, and their sources (features/ledger/kinds.ts). */
function incomeKindCases() {
  const cases = ledgerKindNames.flatMap((name) => {
    const income = ledgerKinds[name].income;
    return income?.cashable ? [sql`when ${name} then ${income.source}`] : [];
  });
  return sql`(case t.kind ${sql.join(cases, sql` `)} end)`;
}

/**
 * Every line of a creator's cashable income, newest first, 20 a page: who paid, the kind and its
 * source, the piece (title and link), the amount (a refund is negative), and whether it is still
 * pending settlement or available. Read from the user's profit holds in the ledger, one line per
 * transaction (a refund taken partly from pending and partly from available is one line). A line
 * is available once a settlement run's cutoff has passed it; until then it is pending, and becomes
 * available after the settlement window.
 */
export async function listIncome(db: Database, userId: number, query: IncomeQuery, limit = 20): Promise<IncomePage> {
  const prefix = `user:${userId}:profit:`;
  const cursor = query.cursor ? Number(query.cursor) : null;
  const [settled] = (
    (await db.execute(sql`
      select max((t.data->>'cutoff')::timestamptz) as cutoff
      from ledger_transactions t join ledger_entries e on e.transaction_id = t.id join ledger_accounts a on a.id = e.account_id
      where t.kind = 'settlement' and a.key = ${`${prefix}pending`}`)) as unknown as Rows<{ cutoff: string | Date | null }>
  ).rows;
  const cutoff = settled?.cutoff ? new Date(settled.cutoff) : null;
  const result = (await db.execute(sql`
    select t.id, t.kind, ${incomeKindCases()} as source, sum(e.amount)::int as amount, t.created_at,
      t.data->>'counterparty' as counterparty, t.data->>'title' as title, t.data->>'path' as path
    from ledger_entries e
      join ledger_accounts a on a.id = e.account_id
      join ledger_transactions t on t.id = e.transaction_id
    where a.key in (${`${prefix}pending`}, ${`${prefix}available`}, ${`${prefix}debt`})
      and ${incomeKindCases()} is not null
      ${cursor === null ? sql`` : sql`and t.id < ${cursor}`}
    group by t.id
    order by t.id desc
    limit ${limit + 1}`)) as unknown as Rows<Record<string, unknown>>;
  const items = result.rows.slice(0, limit).flatMap((row): IncomeLine[] => {
    const source = String(row.source) as IncomeSource;
    if (!incomeSources.includes(source)) return [];
    const createdAt = new Date(row.created_at as string | Date);
    const text = (value: unknown) => (typeof value === "string" && value !== "" ? value : null);
    return [
      {
        id: Number(row.id),
        kind: String(row.kind),
        source,
        amount: Number(row.amount),
        createdAt,
        counterparty: text(row.counterparty),
        title: text(row.title),
        url: text(row.path),
        status: cutoff && createdAt.getTime() <= cutoff.getTime() ? "available" : "pending",
        availableAt: new Date(createdAt.getTime() + settlementSettings.days * day),
      },
    ];
  });
  return { items, nextCursor: result.rows.length > limit ? String(result.rows[limit - 1]!.id) : null };
}
