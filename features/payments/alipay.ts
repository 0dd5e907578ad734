import { AlipaySdk } from "alipay-sdk";
import { NotifyRefused, type IncomingNotify, type PaymentOrderView, type PaymentProvider, type VerifiedNotify } from "./provider.ts";

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

/**
 * Alipay through the official `alipay-sdk`: a desktop page payment (`alipay.trade.page.pay`) and
 * the asynchronous notify (form-encoded, signed with Alipay's key, verified by `checkNotifySignV2`).
 */
export function alipayProvider(settings: AlipaySettings): PaymentProvider {
  const sdk = new AlipaySdk({
    appId: settings.appId,
    privateKey: settings.privateKey,
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
    verifyNotify(notify: IncomingNotify): VerifiedNotify {
      const fields = Object.fromEntries(new URLSearchParams(notify.rawBody));
      if (!fields.sign || !sdk.checkNotifySignV2(fields)) throw new NotifyRefused("bad_signature");
      if (fields.app_id && fields.app_id !== settings.appId) throw new NotifyRefused("bad_signature");
      const orderId = fields.out_trade_no;
      const total = fields.total_amount;
      if (!orderId || !total || !/^\d+(\.\d{1,2})?$/.test(total)) throw new NotifyRefused("malformed", orderId ?? null);
      const status = fields.trade_status;
      const paid = status === "TRADE_SUCCESS" || status === "TRADE_FINISHED";
      return { orderId, outcome: paid ? "paid" : "failed", tradeNo: fields.trade_no ?? null, paidFen: Math.round(Number(total) * 100) };
    },
  };
}
