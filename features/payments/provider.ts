/**
 * A payment provider: makes the payment page of a top-up order and verifies what it reports back.
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

export interface PaymentProvider {
  readonly name: "sandbox" | "alipay" | "wechat";
  /** Where the payer goes to pay (a page of ours for the sandbox, the provider's cashier otherwise). */
  createPayment(order: PaymentOrderView, urls: { notifyUrl: string; returnUrl: string; cashierUrl: string }): Promise<string>;
  /** Checks the signature and reads the notify; throws `NotifyRefused` when it cannot be trusted. */
  verifyNotify(notify: IncomingNotify): VerifiedNotify;
  /** The body the provider expects back once a notify is handled (`success`, `{"code":"SUCCESS"}`…). */
  acknowledgement: { contentType: string; body: string };
}
