import { AlipaySdk } from "alipay-sdk";
import {
  NotifyRefused,
  type IncomingNotify,
  type PaymentOrderView,
  type PaymentProvider,
  type QueriedOrder,
  type VerifiedNotify,
} from "./provider.ts";

export interface AlipaySettings {
  appId: string;
  /** Our application's private key (PKCS#1 or PKCS#8 PEM). */
  privateKey: string;
  /** Alipay's public key: notifies are verified with it (RSA2, SHA256withRSA). */
  alipayPublicKey: string;
  gateway?: string;
}

/** Fen to yuan with two decimals, as Alipay's `total_amount` wants it. */
function yuan(fen: number): string {
  return (fen / 100).toFixed(2);
}

/** Alipay's amounts (`"5.00"`) in fen; anything else is refused. */
function fenOf(total: unknown): number | null {
  return typeof total === "string" && /^\d+(\.\d{1,2})?$/.test(total) ? Math.round(Number(total) * 100) : null;
}

/** What `alipay.trade.query` answers (camel-cased by the SDK). */
interface AlipayTradeQuery {
  code?: string;
  subCode?: string;
  outTradeNo?: string;
  tradeNo?: string;
  tradeStatus?: string;
  totalAmount?: string;
}

/**
 * Alipay through the official `alipay-sdk`: a desktop page payment (`alipay.trade.page.pay`), the
 * asynchronous notify (form-encoded, signed with Alipay's key, verified by `checkNotifySignV2`)
 * and the order query (`alipay.trade.query`, its answer's signature verified by the SDK).
 */
export function alipayProvider(settings: AlipaySettings): PaymentProvider {
  const sdk = new AlipaySdk({
    appId: settings.appId,
    privateKey: settings.privateKey,
    // The SDK re-wraps the key by its type: PKCS#8 (`BEGIN PRIVATE KEY`) must be named, PKCS#1 is its default.
    keyType: /BEGIN PRIVATE KEY/.test(settings.privateKey) ? "PKCS8" : "PKCS1",
    alipayPublicKey: settings.alipayPublicKey,
    ...(settings.gateway ? { gateway: settings.gateway } : {}),
  });
  return {
    name: "alipay",
    acknowledgement: { contentType: "text/plain", body: "success" },
    createPayment: async (order: PaymentOrderView, urls) =>
      sdk.pageExecute("alipay.trade.page.pay", "GET", {
        bizContent: {
          out_trade_no: order.id,
          product_code: "FAST_INSTANT_TRADE_PAY",
          total_amount: yuan(order.priceFen),
          subject: `Sinecoin ×${order.amount}`,
        },
        notifyUrl: urls.notifyUrl,
        returnUrl: urls.returnUrl,
      }),
    async queryOrder(order: PaymentOrderView): Promise<QueriedOrder> {
      const answer = (await sdk.exec(
        "alipay.trade.query",
        { bizContent: { out_trade_no: order.id } },
        { validateSign: true },
      )) as AlipayTradeQuery;
      // The payer has not reached the cashier yet: Alipay knows no such trade.
      if (answer.code === "40004" && answer.subCode === "ACQ.TRADE_NOT_EXIST") return { state: "open" };
      if (answer.code !== "10000") throw new Error(`alipay.trade.query answered ${answer.code ?? "nothing"} ${answer.subCode ?? ""}`);
      if (answer.outTradeNo !== order.id) throw new Error("alipay.trade.query answered for another order");
      const status = answer.tradeStatus;
      // Paid (TRADE_SUCCESS, TRADE_FINISHED), closed unpaid or refunded in full (TRADE_CLOSED), or still waiting.
      const state = status === "TRADE_SUCCESS" || status === "TRADE_FINISHED" ? "paid" : status === "TRADE_CLOSED" ? "failed" : null;
      if (!state) return { state: "open" };
      const paidFen = fenOf(answer.totalAmount);
      if (paidFen === null) throw new Error("alipay.trade.query gave no total_amount");
      return { state, tradeNo: answer.tradeNo ?? null, paidFen };
    },
    verifyNotify(notify: IncomingNotify): VerifiedNotify {
      const fields = Object.fromEntries(new URLSearchParams(notify.rawBody));
      if (!fields.sign || !sdk.checkNotifySignV2(fields)) throw new NotifyRefused("bad_signature");
      if (fields.app_id && fields.app_id !== settings.appId) throw new NotifyRefused("bad_signature");
      const orderId = fields.out_trade_no;
      const paidFen = fenOf(fields.total_amount);
      if (!orderId || paidFen === null) throw new NotifyRefused("malformed", orderId ?? null);
      const status = fields.trade_status;
      const paid = status === "TRADE_SUCCESS" || status === "TRADE_FINISHED";
      return { orderId, outcome: paid ? "paid" : "failed", tradeNo: fields.trade_no ?? null, paidFen };
    },
  };
}
