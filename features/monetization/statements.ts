import { sql } from "drizzle-orm";
import { z } from "zod";
import { stringify } from "csv-stringify/sync";
import type { Database } from "../../server/db/client.ts";
import { ledgerKindNames, ledgerKinds, incomeSources, type IncomeSource } from "../ledger/kinds.ts";
import { escapeCell } from "../analysis/csv.ts";
import type { Locale } from "../../common/locale.ts";

export const statementFileParams = z.object({ file: z.string().regex(/^\d{4}-(0[1-9]|1[0-2])\.csv$/) });

export type StatementSources = Record<IncomeSource, number>;

export interface Statement {
  /** `YYYY-MM`, Asia/Shanghai. */
  month: string;
  income: StatementSources;
  /** Income paid back (refunds), as a positive amount. */
  refunds: number;
  /** Income less refunds, in sinecoin. */
  net: number;
  /**
   * What refunds left owed (the `debt` hold): owed by refunds larger than the income still held
   * this month, recovered from settled income this month, and still outstanding at the month's end.
   */
  debt: { incurred: number; recovered: number; outstanding: number };
  /** Cashouts paid in the month: gross sinecoin, the fee, and fen withheld and paid out. */
  cashouts: { count: number; amount: number; fee: number; taxWithheldFen: number; netFen: number };
}

type Rows<T> = { rows: T[] };

function incomeKindCases() {
  const cases = ledgerKindNames.flatMap((name) => {
    const income = ledgerKinds[name].income;
    return income?.cashable ? [sql`when ${name} then ${income.source}`] : [];
  });
  return sql`(case t.kind ${sql.join(cases, sql` `)} end)`;
}

export function emptyStatement(month: string): Statement {
  return {
    month,
    income: { tips: 0, unlocks: 0, rewards: 0, ads: 0, missions: 0 },
    refunds: 0,
    net: 0,
    debt: { incurred: 0, recovered: 0, outstanding: 0 },
    cashouts: { count: 0, amount: 0, fee: 0, taxWithheldFen: 0, netFen: 0 },
  };
}

/**
 * A creator's monthly statements (Asia/Shanghai months), newest first: cashable income by source
 * and the refunds that reversed it (both from the ledger's profit holds, as the income details
 * count them), their net, and the cashouts paid that month with their fee, the tax withheld and
 * what reached the payout account. Only months with any of these appear; `month` picks one.
 */
export async function monthlyStatements(db: Database, userId: number, month?: string): Promise<Statement[]> {
  const prefix = `user:${userId}:profit:`;
  const monthOf = (column: ReturnType<typeof sql>) => sql`to_char(${column} at time zone 'Asia/Shanghai', 'YYYY-MM')`;
  const income = (
    (await db.execute(sql`
      select month, source, sum(amount) filter (where amount > 0)::int as earned, sum(amount) filter (where amount < 0)::int as refunded
      from (
        select ${monthOf(sql`t.created_at`)} as month, ${incomeKindCases()} as source, sum(e.amount) as amount
        from ledger_entries e
          join ledger_accounts a on a.id = e.account_id
          join ledger_transactions t on t.id = e.transaction_id
        where a.key in (${`${prefix}pending`}, ${`${prefix}available`}, ${`${prefix}debt`}) and ${incomeKindCases()} is not null
        group by t.id
      ) lines
      ${month ? sql`where month = ${month}` : sql``}
      group by month, source`)) as unknown as Rows<{ month: string; source: string; earned: number | null; refunded: number | null }>
  ).rows;
  const paid = (
    (await db.execute(sql`
      select ${monthOf(sql`coalesce(finished_at, created_at)`)} as month, count(*)::int as count, sum(amount)::int as amount,
        sum(fee)::int as fee, sum(tax_withheld_fen)::int as tax, sum(net_fen)::int as net
      from cashouts where user_id = ${userId} and status = 'paid'
      group by 1`)) as unknown as Rows<{ month: string; count: number; amount: number; fee: number; tax: number; net: number }>
  ).rows;
  // The debt hold's movements per month, with its balance at each month's end (a running sum).
  const debts = (
    (await db.execute(sql`
      select month, incurred, recovered, -sum(incurred * -1 + recovered) over (order by month) as outstanding
      from (
        select ${monthOf(sql`t.created_at`)} as month,
          coalesce(-sum(e.amount) filter (where e.amount < 0), 0)::int as incurred,
          coalesce(sum(e.amount) filter (where e.amount > 0), 0)::int as recovered
        from ledger_entries e
          join ledger_accounts a on a.id = e.account_id
          join ledger_transactions t on t.id = e.transaction_id
        where a.key = ${`${prefix}debt`}
        group by 1
      ) moves`)) as unknown as Rows<{ month: string; incurred: number; recovered: number; outstanding: string | number }>
  ).rows;
  const byMonth = new Map<string, Statement>();
  const of = (key: string) => {
    const statement = byMonth.get(key) ?? emptyStatement(key);
    byMonth.set(key, statement);
    return statement;
  };
  for (const row of income) {
    const source = row.source as IncomeSource;
    if (!incomeSources.includes(source)) continue;
    const statement = of(row.month);
    statement.income[source] += Number(row.earned ?? 0);
    statement.refunds -= Number(row.refunded ?? 0);
  }
  for (const row of debts) {
    if (month && row.month !== month) continue;
    of(row.month).debt = { incurred: Number(row.incurred), recovered: Number(row.recovered), outstanding: Number(row.outstanding) };
  }
  for (const row of paid) {
    if (month && row.month !== month) continue;
    of(row.month).cashouts = {
      count: Number(row.count),
      amount: Number(row.amount),
      fee: Number(row.fee),
      taxWithheldFen: Number(row.tax),
      netFen: Number(row.net),
    };
  }
  for (const statement of byMonth.values()) {
    statement.net = incomeSources.reduce((sum, source) => sum + statement.income[source], 0) - statement.refunds;
  }
  return [...byMonth.values()].sort((a, b) => b.month.localeCompare(a.month));
}

const headings = {
  "zh-CN": {
    item: "项目",
    amount: "金额",
    sources: { tips: "赞赏", unlocks: "付费阅读", ads: "广告分成", missions: "任务奖励", rewards: "计划奖励" },
    refunds: "退款",
    net: "净收入（圈币）",
    debtIncurred: "退款形成的欠款",
    debtRecovered: "从收益中抵扣的欠款",
    debtOutstanding: "月末尚欠",
    cashouts: "已到账提现（笔）",
    cashoutAmount: "提现金额（圈币）",
    fee: "手续费（圈币）",
    tax: "代扣个人所得税（元）",
    paid: "实际到账（元）",
  },
  en: {
    item: "Item",
    amount: "Amount",
    sources: { tips: "Tips", unlocks: "Pay-to-view", ads: "Ad share", missions: "Mission rewards", rewards: "Programme rewards" },
    refunds: "Refunds",
    net: "Net income (sinecoin)",
    debtIncurred: "Owed by refunds",
    debtRecovered: "Owed amount recovered from income",
    debtOutstanding: "Still owed at month end",
    cashouts: "Cashouts paid (count)",
    cashoutAmount: "Cashed out (sinecoin)",
    fee: "Fee (sinecoin)",
    tax: "Income tax withheld (yuan)",
    paid: "Paid out (yuan)",
  },
} as const;

const yuan = (fen: number) => (fen / 100).toFixed(2);

/** One month's statement as CSV: UTF-8 with a BOM, headings in the reader's language, formulas escaped. */
export function statementCsv(statement: Statement, locale: Locale): string {
  const words = headings[locale === "en" ? "en" : "zh-CN"];
  const rows: (string | number)[][] = [
    [words.item, words.amount],
    ...incomeSources.map((source) => [words.sources[source], statement.income[source]]),
    [words.refunds, -statement.refunds],
    [words.net, statement.net],
    [words.debtIncurred, statement.debt.incurred],
    [words.debtRecovered, statement.debt.recovered],
    [words.debtOutstanding, statement.debt.outstanding],
    [words.cashouts, statement.cashouts.count],
    [words.cashoutAmount, statement.cashouts.amount],
    [words.fee, statement.cashouts.fee],
    [words.tax, yuan(statement.cashouts.taxWithheldFen)],
    [words.paid, yuan(statement.cashouts.netFen)],
  ];
  return `\uFEFF${stringify(rows.map((row) => row.map(escapeCell)))}`;
}
