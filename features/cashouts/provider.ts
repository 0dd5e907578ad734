import type { Database } from "../../server/db/client.ts";

/**
 * A payout provider: sends one cashout's net amount to its payee and answers what became of it.
 * The cashout id is the provider's idempotency key (Alipay `out_biz_no`, WeChat Pay `out_bill_no`):
 * the same transfer sent twice is paid once. A `transfer` that throws left its outcome unknown;
 * the payout job then asks `query` before anything is sent again, and sends again (with the same
 * id) only when the provider never saw it. Built in: the sandbox (`sandbox.ts`), Alipay and
 * WeChat Pay (`live.ts`).
 */
export interface PayoutTransfer {
  id: string;
  netFen: number;
  payeeKind: "alipay" | "wechat";
  payeeAccount: string;
  payeeName: string;
}

/** A transfer's outcome: paid (with the provider's number), failed (with its reason), or still on its way. */
export type PayoutOutcome = { state: "paid"; ref: string | null } | { state: "failed"; reason: string } | { state: "pending" };

/** What a query finds: an outcome, or that the provider never received the transfer (`unknown`: safe to send). */
export type PayoutQuery = PayoutOutcome | { state: "unknown" };

export interface PayoutContext {
  db: Database;
}

export interface PayoutProvider {
  readonly name: "sandbox" | "alipay" | "wechat";
  transfer(transfer: PayoutTransfer, context: PayoutContext): Promise<PayoutOutcome>;
  query(transfer: PayoutTransfer, context: PayoutContext): Promise<PayoutQuery>;
}
