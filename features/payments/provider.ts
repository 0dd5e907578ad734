import type { Database } from "../../server/db/client.ts";

/**
 * A payment provider: makes the payment page of a top-up order, verifies what it reports back and
 * answers what became of an order when asked.
 * The built-in sandbox (sandbox.ts) is the default; Alipay (alipay.ts) and WeChat Pay v3
 * (wechat.ts) are configured by environment variables (README, "Payments").
 */
export interface PaymentOrderView {
  id: string;
  /** Sinecoin bought. */
  amount: number;
  /** What is charged, in fen. */
  priceFen: number;
  method: "wechat" | "alipay";
}

/** A notify as it arrived: its headers and its body exactly as sent (signatures cover the bytes). */
export interface IncomingNotify {
  headers: Record<string, string | string[] | undefined>;
  rawBody: string;
}

/** What a verified notify says happened to an order. */
export interface VerifiedNotify {
  orderId: string;
  outcome: "paid" | "failed";
  /** The provider's number for the payment. */
  tradeNo: string | null;
  /** What the provider says was paid, in fen. */
  paidFen: number;
  /** The sandbox also names the sinecoin amount of the order it was shown. */
  amount?: number;
}

/** A refused notify: why (logged with the callback), never what our secret is. */
export type RefusalReason = "bad_signature" | "malformed" | "unknown_order" | "wrong_amount" | "stale";

export class NotifyRefused extends Error {
  readonly reason: RefusalReason;
  readonly orderId: string | null;
  constructor(reason: RefusalReason, orderId: string | null = null) {
    super(reason);
    this.reason = reason;
    this.orderId = orderId;
  }
}

/**
 * What a provider says of an order when asked (`queryOrder`): paid (with what it took), closed
 * without payment, or still open (not paid yet, or never seen: the payer has not reached its
 * cashier). A provider that cannot be reached or whose answer fails its signature throws.
 */
export type QueriedOrder = { state: "paid" | "failed"; tradeNo: string | null; paidFen: number } | { state: "open" };

/** What a query needs besides the order: the sandbox reads its own records in our database. */
export interface QueryContext {
  db: Database;
}

export interface PaymentProvider {
  readonly name: "sandbox" | "alipay" | "wechat";
  /** Where the payer goes to pay (a page of ours for the sandbox, the provider's cashier otherwise). */
  createPayment(order: PaymentOrderView, urls: { notifyUrl: string; returnUrl: string; cashierUrl: string }): Promise<string>;
  /** Checks the signature and reads the notify; throws `NotifyRefused` when it cannot be trusted. */
  verifyNotify(notify: IncomingNotify): VerifiedNotify;
  /**
   * Asks the provider for the order's state (Alipay `alipay.trade.query`, WeChat Pay's query by
   * out_trade_no, the sandbox's record of its cashier), its answer's signature verified.
   */
  queryOrder(order: PaymentOrderView, context: QueryContext): Promise<QueriedOrder>;
  /** The body the provider expects back once a notify is handled (`success`, `{"code":"SUCCESS"}`…). */
  acknowledgement: { contentType: string; body: string };
}
