import { z } from "zod";
import { defineOperation } from "../../server/lib/operation.ts";
import { applyAsCreator, monetizationStatus, type MonetizationStatus } from "./service.ts";
import { monetizationHome, type MonetizationHome } from "./home.ts";
import { incomeQuerySchema, listIncome, type IncomeLine, type IncomePage } from "./income.ts";
import { incomeSources } from "../ledger/kinds.ts";
import { emptyStatement as emptyFor, monthlyStatements, statementCsv, statementFileParams, type Statement } from "./statements.ts";
import { presentWallet, walletAnswerSchema } from "../wallet/operations.ts";
import { profitSources } from "../analysis/profit.ts";

const statusAnswer = z.strictObject({
  user_type: z.string(),
  participant: z.boolean(),
  paths: z.array(
    z.strictObject({
      key: z.string(),
      criteria: z.array(
        z.strictObject({
          key: z.string(),
          required: z.number().int(),
          bound: z.enum(["at_least", "at_most"]),
          current: z.number().int(),
          met: z.boolean(),
        }),
      ),
    }),
  ),
  application: z.strictObject({ status: z.enum(["pending", "approved", "rejected"]), reason: z.string().nullable() }).nullable(),
});

export function presentMonetization(status: MonetizationStatus): z.infer<typeof statusAnswer> {
  return {
    user_type: status.userType,
    participant: status.participant,
    paths: status.paths,
    application: status.application,
  };
}

export const monetizationOperation = defineOperation({
  name: "monetization",
  input: {},
  viewer: "signed-in",
  run: (services, viewer) => monetizationStatus(services.db, viewer.id, services.now()),
  present: presentMonetization,
  response: statusAnswer,
  failures: [],
});

export const applyOperation = defineOperation({
  name: "monetizationApply",
  input: {},
  viewer: "signed-in",
  run: (services, viewer) => applyAsCreator({ db: services.db }, viewer.id, services.now()),
  present: presentMonetization,
  response: statusAnswer,
  failures: ["already_applied"],
});

const homeAnswer = z.strictObject({
  wallet: walletAnswerSchema,
  pending: z.number().int(),
  debt: z.number().int(),
  settlement_days: z.number().int(),
  month: z.string(),
  by_source: z.array(z.strictObject({ source: z.enum(profitSources), amount: z.number().int() })),
  month_total: z.number().int(),
});

export function presentHome(home: MonetizationHome): z.infer<typeof homeAnswer> {
  return {
    wallet: presentWallet(home.wallet),
    pending: home.pending,
    debt: home.debt,
    settlement_days: home.settlementDays,
    month: home.month,
    by_source: home.bySource,
    month_total: home.monthTotal,
  };
}

/** What `/monetization/home` shows, as JSON: only the viewer's own figures. */
export const monetizationHomeOperation = defineOperation({
  name: "monetizationHome",
  input: {},
  viewer: "signed-in",
  run: (services, viewer) => monetizationHome(services.db, viewer, services.now()),
  present: presentHome,
  response: homeAnswer,
  failures: [],
});

const incomeLineAnswer = z.strictObject({
  id: z.number().int(),
  kind: z.string(),
  source: z.enum(incomeSources),
  amount: z.number().int(),
  created_at: z.string(),
  counterparty: z.string().nullable(),
  title: z.string().nullable(),
  url: z.string().nullable(),
  status: z.enum(["pending", "available"]),
  available_at: z.string(),
});

export function presentIncomeLine(line: IncomeLine): z.infer<typeof incomeLineAnswer> {
  return {
    id: line.id,
    kind: line.kind,
    source: line.source,
    amount: line.amount,
    created_at: line.createdAt.toISOString(),
    counterparty: line.counterparty,
    title: line.title,
    url: line.url,
    status: line.status,
    available_at: line.availableAt.toISOString(),
  };
}

/** Every income line of the viewer's own, newest first, paged. */
export const incomeOperation = defineOperation({
  name: "monetizationIncome",
  input: { query: incomeQuerySchema },
  viewer: "signed-in",
  run: (services, viewer, { query }) => listIncome(services.db, viewer.id, query),
  present: (page: IncomePage) => ({ results: page.items.map(presentIncomeLine), next_cursor: page.nextCursor }),
  response: z.strictObject({ results: z.array(incomeLineAnswer), next_cursor: z.string().nullable() }),
  failures: [],
});

const statementAnswer = z.strictObject({
  month: z.string(),
  income: z.strictObject(
    Object.fromEntries(incomeSources.map((source) => [source, z.number().int()])) as Record<(typeof incomeSources)[number], z.ZodNumber>,
  ),
  refunds: z.number().int(),
  net: z.number().int(),
  debt: z.strictObject({ incurred: z.number().int(), recovered: z.number().int(), outstanding: z.number().int() }),
  cashouts: z.strictObject({
    count: z.number().int(),
    amount: z.number().int(),
    fee: z.number().int(),
    tax_withheld_fen: z.number().int(),
    net_fen: z.number().int(),
  }),
  csv_url: z.string(),
});

export function presentStatement(statement: Statement): z.infer<typeof statementAnswer> {
  return {
    month: statement.month,
    income: statement.income,
    refunds: statement.refunds,
    net: statement.net,
    debt: { ...statement.debt },
    cashouts: {
      count: statement.cashouts.count,
      amount: statement.cashouts.amount,
      fee: statement.cashouts.fee,
      tax_withheld_fen: statement.cashouts.taxWithheldFen,
      net_fen: statement.cashouts.netFen,
    },
    csv_url: `/api/monetization/statements/${statement.month}.csv`,
  };
}

/** The viewer's own monthly statements, newest first. */
export const statementsOperation = defineOperation({
  name: "monetizationStatements",
  input: {},
  viewer: "signed-in",
  run: (services, viewer) => monthlyStatements(services.db, viewer.id),
  present: (statements: Statement[]) => ({ results: statements.map(presentStatement) }),
  response: z.strictObject({ results: z.array(statementAnswer) }),
  failures: [],
});

/** One month's statement of the viewer's own as CSV (a month without activity is all zeros). */
export const statementCsvOperation = defineOperation({
  name: "monetizationStatementCsv",
  input: { params: statementFileParams },
  viewer: "signed-in",
  run: async (services, viewer, { params }) => {
    const month = params.file.slice(0, 7);
    const [statement] = await monthlyStatements(services.db, viewer.id, month);
    return statement ?? emptyFor(month);
  },
  present: (statement: Statement, { locale }) => statementCsv(statement, locale),
  response: z.string().describe("text/csv"),
  failures: [],
});
