import { z } from "zod";
import { defineOperation } from "../../server/lib/operation.ts";
import { currencies } from "../../server/db/schema/ledger.ts";
import { exchangeInputSchema, payoutAccountInputSchema, transactionsQuerySchema } from "./schema.ts";
import {
  exchangeGold,
  getPayoutAccount,
  listMovements,
  maskAccount,
  maskName,
  savePayoutAccount,
  walletSummary,
  type ExchangeResult,
  type MovementPage,
  type PayoutAccount,
  type WalletMovement,
  type WalletSummary,
} from "./service.ts";

/* The wallet: balances, lines, the gold exchange and the payout account; the API (features/wallet/api.ts) and the /wallet pages. */

export const walletAnswerSchema = z.strictObject({
  sinecoin: z.number().int(),
  gold: z.number().int(),
  sinecoin_total_profit: z.number().int(),
  sinecoin_total_cashout: z.number().int(),
  cashoutable_sinecoin_profit: z.number().int(),
});

export function presentWallet(wallet: WalletSummary): z.infer<typeof walletAnswerSchema> {
  return {
    sinecoin: wallet.sinecoin,
    gold: wallet.gold,
    sinecoin_total_profit: wallet.sinecoinTotalProfit,
    sinecoin_total_cashout: wallet.sinecoinTotalCashout,
    cashoutable_sinecoin_profit: wallet.cashoutableSinecoinProfit,
  };
}

export const walletOperation = defineOperation({
  name: "wallet",
  input: {},
  viewer: "signed-in",
  run: (services, viewer) => walletSummary(services.db, viewer.id),
  present: presentWallet,
  response: walletAnswerSchema,
  failures: [],
});

const movementAnswer = z.object({
  id: z.number().int(),
  transaction_id: z.number().int(),
  kind: z.string(),
  currency: z.enum(currencies),
  amount: z.number().int(),
  created_at: z.string(),
  title: z.string().nullable(),
  url: z.string().nullable(),
  counterparty: z.string().nullable(),
});

function text(data: Record<string, unknown>, name: string): string | null {
  const value = data[name];
  return typeof value === "string" ? value : null;
}

export function presentMovement(movement: WalletMovement): z.infer<typeof movementAnswer> {
  return {
    id: movement.id,
    transaction_id: movement.transactionId,
    kind: movement.kind,
    currency: movement.currency,
    amount: movement.amount,
    created_at: new Date(movement.createdAt).toISOString(),
    title: text(movement.data, "title"),
    url: text(movement.data, "path"),
    counterparty: text(movement.data, "counterparty"),
  };
}

export const walletTransactionsOperation = defineOperation({
  name: "walletTransactions",
  input: { query: transactionsQuerySchema },
  viewer: "signed-in",
  run: (services, viewer, { query }) => listMovements(services.db, viewer.id, query),
  present: (page: MovementPage) => ({ results: page.items.map(presentMovement), next_cursor: page.nextCursor }),
  response: z.object({ results: z.array(movementAnswer), next_cursor: z.string().nullable() }),
  failures: [],
});

export const exchangeOperation = defineOperation({
  name: "exchangeGold",
  input: { body: exchangeInputSchema },
  viewer: "signed-in",
  run: (services, viewer, { body }) => exchangeGold({ db: services.db }, viewer.id, body.gold, services.idempotencyKey),
  present: (result: ExchangeResult) => ({
    gold: result.gold,
    sinecoin: result.sinecoin,
    exchanged_gold: result.exchangedGold,
    received_sinecoin: result.receivedSinecoin,
  }),
  response: z.strictObject({
    gold: z.number().int(),
    sinecoin: z.number().int(),
    exchanged_gold: z.number().int(),
    received_sinecoin: z.number().int(),
  }),
  failures: ["insufficient_balance", "idempotency_key_required", "idempotency_mismatch"],
  unexpected: "exchange_failed",
});

const payoutAnswer = z.object({ provider: z.enum(["alipay", "wechat"]), account: z.string(), real_name: z.string() }).nullable();

/** The payout account, masked: the full account never leaves the server again. */
export function presentPayout(account: PayoutAccount | null): z.infer<typeof payoutAnswer> {
  return account ? { provider: account.provider, account: maskAccount(account.account), real_name: maskName(account.realName) } : null;
}

export const payoutAccountOperation = defineOperation({
  name: "payoutAccount",
  input: {},
  viewer: "signed-in",
  run: (services, viewer) => getPayoutAccount(services.db, viewer.id),
  present: presentPayout,
  response: payoutAnswer,
  failures: [],
});

export const savePayoutAccountOperation = defineOperation({
  name: "savePayoutAccount",
  input: { body: payoutAccountInputSchema },
  viewer: "signed-in",
  run: (services, viewer, { body }) =>
    savePayoutAccount({ db: services.db }, viewer.id, { provider: body.provider, account: body.account, realName: body.real_name }),
  present: presentPayout,
  response: payoutAnswer,
  failures: [],
});
