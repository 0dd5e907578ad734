import { z } from "zod";
import { defineOperation } from "../../server/lib/operation.ts";
import { reasonField } from "../admin/audit.ts";
import { requireStaff } from "../admin/staff.ts";
import { maskAccount, maskName } from "../wallet/service.ts";
import { cashoutAmountSchema, cashoutIdSchema, cashoutListQuerySchema, sandboxMarkSchema } from "./schema.ts";
import {
  approveCashout,
  cancelCashout,
  listCashouts,
  markSandboxPayout,
  quote,
  rejectCashout,
  requestCashout,
  type Cashout,
  type CashoutPage,
} from "./service.ts";
import { taxRules, type CashoutQuote } from "./settings.ts";

/* Cashouts: the quote, the request, the list, cancelling, the sandbox's marks, and the admins' decisions. */

const quoteAnswer = z.strictObject({
  amount: z.number().int(),
  fee: z.number().int(),
  fen_per_sinecoin: z.number().int(),
  gross_fen: z.number().int(),
  deduction_fen: z.number().int(),
  taxable_fen: z.number().int(),
  tax_rate: z.number().int(),
  quick_deduction_fen: z.number().int(),
  /** Individual income tax withheld, in fen. */
  tax_withheld: z.number().int(),
  net_fen: z.number().int(),
});

export function presentQuote(figures: CashoutQuote): z.infer<typeof quoteAnswer> {
  return {
    amount: figures.amount,
    fee: figures.fee,
    fen_per_sinecoin: figures.fenPerSinecoin,
    gross_fen: figures.grossFen,
    deduction_fen: figures.deductionFen,
    taxable_fen: figures.taxableFen,
    tax_rate: figures.taxRate,
    quick_deduction_fen: figures.quickDeductionFen,
    tax_withheld: figures.taxWithheldFen,
    net_fen: figures.netFen,
  };
}

export const cashoutAnswer = z.strictObject({
  id: z.string(),
  amount: z.number().int(),
  fee: z.number().int(),
  gross_fen: z.number().int(),
  tax_withheld: z.number().int(),
  net_fen: z.number().int(),
  status: z.enum(["requested", "approved", "rejected", "cancelled", "paid", "failed"]),
  reason: z.string().nullable(),
  provider: z.enum(["sandbox", "alipay", "wechat"]),
  payee: z.strictObject({ provider: z.enum(["alipay", "wechat"]), account: z.string(), real_name: z.string() }),
  created_at: z.string(),
  decided_at: z.string().nullable(),
  finished_at: z.string().nullable(),
});

export function presentCashout(cashout: Cashout): z.infer<typeof cashoutAnswer> {
  return {
    id: cashout.id,
    amount: cashout.amount,
    fee: cashout.fee,
    gross_fen: cashout.grossFen,
    tax_withheld: cashout.taxWithheldFen,
    net_fen: cashout.netFen,
    status: cashout.status,
    reason: cashout.reason,
    provider: cashout.provider,
    payee: { provider: cashout.payeeKind, account: maskAccount(cashout.payeeAccount), real_name: maskName(cashout.payeeName) },
    created_at: new Date(cashout.createdAt).toISOString(),
    decided_at: cashout.decidedAt ? new Date(cashout.decidedAt).toISOString() : null,
    finished_at: cashout.finishedAt ? new Date(cashout.finishedAt).toISOString() : null,
  };
}

export const quoteCashoutOperation = defineOperation({
  name: "quoteCashout",
  input: { body: cashoutAmountSchema },
  viewer: "signed-in",
  run: async (_services, _viewer, { body }) => quote(body.amount),
  present: presentQuote,
  response: quoteAnswer,
  failures: ["below_minimum"],
});

export const requestCashoutOperation = defineOperation({
  name: "requestCashout",
  input: { body: cashoutAmountSchema },
  viewer: "signed-in",
  run: (services, viewer, { body }) => requestCashout({ db: services.db }, viewer.id, body.amount, services.idempotencyKey),
  present: presentCashout,
  response: cashoutAnswer,
  failures: [
    "below_minimum",
    "insufficient_cashoutable",
    "insufficient_balance",
    "payout_account_required",
    "idempotency_key_required",
    "idempotency_mismatch",
  ],
  unexpected: "cashout_failed",
});

export const listCashoutsOperation = defineOperation({
  name: "listCashouts",
  input: { query: cashoutListQuerySchema },
  viewer: "signed-in",
  run: (services, viewer, { query }) => listCashouts(services.db, viewer.id, query.cursor),
  present: (page: CashoutPage) => ({ results: page.items.map(presentCashout), next_cursor: page.nextCursor }),
  response: z.strictObject({ results: z.array(cashoutAnswer), next_cursor: z.string().nullable() }),
  failures: [],
});

export const cancelCashoutOperation = defineOperation({
  name: "cancelCashout",
  input: { params: cashoutIdSchema },
  viewer: "signed-in",
  run: (services, viewer, { params }) => cancelCashout({ db: services.db }, viewer.id, params.id),
  present: presentCashout,
  response: cashoutAnswer,
  failures: ["not_found", "cashout_not_requested"],
});

export const markSandboxPayoutOperation = defineOperation({
  name: "markSandboxPayout",
  input: { params: cashoutIdSchema, body: sandboxMarkSchema },
  viewer: "signed-in",
  run: (services, viewer, { params, body }) => markSandboxPayout(services.db, viewer.id, params.id, body.outcome),
  present: presentCashout,
  response: cashoutAnswer,
  failures: ["not_found", "cashout_not_approved"],
});

const decisionBody = z.strictObject({ reason: reasonField }).optional();

export const approveCashoutOperation = defineOperation({
  name: "adminApproveCashout",
  input: { params: cashoutIdSchema, body: decisionBody },
  viewer: "signed-in",
  run: async (services, viewer, { params, body }) =>
    approveCashout(
      { db: services.db },
      await requireStaff(services.db, viewer, "manage_cashouts"),
      services.client.address,
      params.id,
      body?.reason,
    ),
  present: presentCashout,
  response: cashoutAnswer,
  failures: ["forbidden", "not_found", "cashout_not_requested"],
});

export const rejectCashoutOperation = defineOperation({
  name: "adminRejectCashout",
  input: { params: cashoutIdSchema, body: decisionBody },
  viewer: "signed-in",
  run: async (services, viewer, { params, body }) =>
    rejectCashout(
      { db: services.db },
      await requireStaff(services.db, viewer, "manage_cashouts"),
      services.client.address,
      params.id,
      body?.reason,
    ),
  present: presentCashout,
  response: cashoutAnswer,
  failures: ["forbidden", "not_found", "cashout_not_requested", "reason_required"],
});

/** The withholding rules as the page shows them (amounts in fen). */
export function presentTaxRules() {
  return {
    threshold_fen: taxRules.threshold,
    fixed_deduction_fen: taxRules.fixedDeduction,
    percent_deduction: taxRules.percentDeduction,
    brackets: taxRules.brackets.map((b) => ({ up_to_fen: b.upTo, rate: b.rate, quick_deduction_fen: b.quickDeduction })),
  };
}
