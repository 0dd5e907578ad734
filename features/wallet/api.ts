import type { FastifyInstance } from "fastify";
import { jsonRoute } from "../../server/lib/operation.ts";
import {
  exchangeOperation,
  payoutAccountOperation,
  savePayoutAccountOperation,
  walletOperation,
  walletTransactionsOperation,
} from "./operations.ts";

/** The wallet: balances, lines, gold exchange, payout account. Money-moving calls carry an `Idempotency-Key` header. */
export async function walletApi(app: FastifyInstance): Promise<void> {
  const tags = ["wallet"];
  jsonRoute(app, "GET", "/api/wallet/", walletOperation, { tags, summary: "Balances of sinecoin and gold, profit and cashouts" });
  jsonRoute(app, "GET", "/api/wallet/transactions/", walletTransactionsOperation, {
    tags,
    summary: "Wallet lines, newest first (filter by currency, kind, month; cursor paging)",
  });
  jsonRoute(app, "POST", "/api/wallet/exchange/", exchangeOperation, {
    tags,
    summary: "Exchange gold for sinecoin at the configured rate (Idempotency-Key required)",
  });
  jsonRoute(app, "GET", "/api/wallet/payout_account/", payoutAccountOperation, { tags, summary: "The payout account, masked" });
  jsonRoute(app, "PUT", "/api/wallet/payout_account/", savePayoutAccountOperation, {
    tags,
    summary: "Set the Alipay account and real name cashouts will use",
  });
}
