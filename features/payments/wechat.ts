import { createDecipheriv, createSign, createVerify, randomBytes } from "node:crypto";
import {
  NotifyRefused,
  type IncomingNotify,
  type PaymentOrderView,
  type PaymentProvider,
  type QueriedOrder,
  type VerifiedNotify,
} from "./provider.ts";

export interface WechatSettings {
  appId: string;
  merchantId: string;
  /** The serial number of our merchant API certificate. */
  merchantSerial: string;
  /** Our merchant API private key (PEM): signs our requests. */
  privateKey: string;
  /** The WeChat Pay platform public key (PEM): notifies are verified with it. */
  platformPublicKey: string;
  /** The APIv3 key (32 bytes): decrypts a notify's resource (AES-256-GCM). */
  apiV3Key: string;
  gateway?: string;
}

/** A notify or an answer older than this (Wechatpay-Timestamp) is refused. */
const toleranceSeconds = 5 * 60;

function header(headers: IncomingNotify["headers"], name: string): string | null {
  const value = headers[name];
  return typeof value === "string" ? value : null;
}

/** Decrypts a notify's `resource` (AEAD_AES_256_GCM with the APIv3 key). */
export function decryptWechatResource(apiV3Key: string, resource: { ciphertext: string; nonce: string; associated_data?: string }): string {
  const data = Buffer.from(resource.ciphertext, "base64");
  const decipher = createDecipheriv("aes-256-gcm", Buffer.from(apiV3Key, "utf8"), Buffer.from(resource.nonce, "utf8"));
  decipher.setAuthTag(data.subarray(data.length - 16));
  decipher.setAAD(Buffer.from(resource.associated_data ?? "", "utf8"));
  return Buffer.concat([decipher.update(data.subarray(0, data.length - 16)), decipher.final()]).toString("utf8");
}

/** What WeChat Pay says of a transaction (a query's answer, a notify's decrypted resource). */
interface WechatTransaction {
  appid?: string;
  mchid?: string;
  out_trade_no?: string;
  transaction_id?: string;
  trade_state?: string;
  amount?: { total?: number; payer_total?: number };
}

/**
 * Signs our requests to WeChat Pay v3 and checks the platform's signature on what it sends back:
 * shared by the payments (here) and the payouts (features/cashouts).
 */
export function wechatSigner(settings: WechatSettings, clock: () => Date = () => new Date()) {
  /** The Authorization header of a request: `METHOD\npath?query\ntimestamp\nnonce\nbody\n` signed with our key. */
  function authorization(method: string, path: string, body: string): string {
    const timestamp = Math.floor(clock().getTime() / 1000);
    const nonce = randomBytes(16).toString("hex");
    const signature = createSign("RSA-SHA256")
      .update(`${method}\n${path}\n${timestamp}\n${nonce}\n${body}\n`)
      .sign(settings.privateKey, "base64");
    return `WECHATPAY2-SHA256-RSA2048 mchid="${settings.merchantId}",nonce_str="${nonce}",signature="${signature}",timestamp="${timestamp}",serial_no="${settings.merchantSerial}"`;
  }

  /** Whether a notify or an answer carries the platform's fresh signature over its body (else why not). */
  function signatureProblem(headers: IncomingNotify["headers"], body: string): "bad_signature" | "stale" | null {
    const timestamp = header(headers, "wechatpay-timestamp");
    const nonce = header(headers, "wechatpay-nonce");
    const signature = header(headers, "wechatpay-signature");
    if (!timestamp || !nonce || !signature || !/^\d{1,12}$/.test(timestamp)) return "bad_signature";
    const verified = createVerify("RSA-SHA256")
      .update(`${timestamp}\n${nonce}\n${body}\n`)
      .verify(settings.platformPublicKey, signature, "base64");
    if (!verified) return "bad_signature";
    if (Math.abs(clock().getTime() / 1000 - Number(timestamp)) > toleranceSeconds) return "stale";
    return null;
  }
  return { gateway: settings.gateway ?? "https://api.mch.weixin.qq.com", authorization, signatureProblem };
}

/**
 * WeChat Pay API v3: a Native payment (`/v3/pay/transactions/native`, the payer scans its
 * `code_url`) and the order query (`/v3/pay/transactions/out-trade-no/{id}`), requests signed with
 * our merchant key (`WECHATPAY2-SHA256-RSA2048`); notifies and answers verified with the platform
 * key (`timestamp\nnonce\nbody\n`, SHA256withRSA), a notify's resource then decrypted.
 */
export function wechatProvider(settings: WechatSettings, clock: () => Date = () => new Date()): PaymentProvider {
  const { gateway, authorization, signatureProblem } = wechatSigner(settings, clock);

  return {
    name: "wechat",
    acknowledgement: { contentType: "application/json", body: '{"code":"SUCCESS","message":"OK"}' },
    async createPayment(order: PaymentOrderView, urls) {
      const path = "/v3/pay/transactions/native";
      const body = JSON.stringify({
        appid: settings.appId,
        mchid: settings.merchantId,
        description: `Sinecoin x${order.amount}`,
        out_trade_no: order.id,
        notify_url: urls.notifyUrl,
        amount: { total: order.priceFen, currency: "CNY" },
      });
      const response = await fetch(`${gateway}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json", authorization: authorization("POST", path, body) },
        body,
      });
      if (!response.ok) throw new Error(`WeChat Pay answered ${response.status}`);
      const { code_url: codeUrl } = (await response.json()) as { code_url?: string };
      if (!codeUrl) throw new Error("WeChat Pay gave no code_url");
      // Our order page shows the code to scan.
      return `${urls.returnUrl}?code_url=${encodeURIComponent(codeUrl)}`;
    },
    async queryOrder(order: PaymentOrderView): Promise<QueriedOrder> {
      const path = `/v3/pay/transactions/out-trade-no/${encodeURIComponent(order.id)}?mchid=${encodeURIComponent(settings.merchantId)}`;
      const response = await fetch(`${gateway}${path}`, {
        headers: { accept: "application/json", authorization: authorization("GET", path, "") },
      });
      const body = await response.text();
      // The payer has not reached the cashier yet: WeChat Pay knows no such order.
      if (response.status === 404 && /"ORDER_NOT_EXIST"/.test(body)) return { state: "open" };
      if (!response.ok) throw new Error(`WeChat Pay answered ${response.status} to an order query`);
      const problem = signatureProblem(Object.fromEntries(response.headers), body);
      if (problem) throw new Error(`WeChat Pay's answer to an order query failed its check: ${problem}`);
      const transaction = JSON.parse(body) as WechatTransaction;
      if (transaction.out_trade_no !== order.id || (transaction.mchid && transaction.mchid !== settings.merchantId))
        throw new Error("WeChat Pay answered for another order");
      // Paid (SUCCESS), closed unpaid or refunded (CLOSED, REVOKED, PAYERROR, REFUND), or still waiting (NOTPAY, USERPAYING).
      const state = transaction.trade_state;
      const settled =
        state === "SUCCESS"
          ? "paid"
          : state === "CLOSED" || state === "REVOKED" || state === "PAYERROR" || state === "REFUND"
            ? "failed"
            : null;
      if (!settled) return { state: "open" };
      const total = transaction.amount?.total;
      if (!Number.isSafeInteger(total)) throw new Error("WeChat Pay's answer has no amount");
      return { state: settled, tradeNo: transaction.transaction_id ?? null, paidFen: total! };
    },
    verifyNotify(notify: IncomingNotify): VerifiedNotify {
      const problem = signatureProblem(notify.headers, notify.rawBody);
      if (problem) throw new NotifyRefused(problem);
      let transaction: WechatTransaction;
      try {
        const envelope = JSON.parse(notify.rawBody) as { resource?: { ciphertext: string; nonce: string; associated_data?: string } };
        if (!envelope.resource) throw new Error("no resource");
        transaction = JSON.parse(decryptWechatResource(settings.apiV3Key, envelope.resource)) as typeof transaction;
      } catch {
        throw new NotifyRefused("malformed");
      }
      if (!transaction.out_trade_no || !Number.isSafeInteger(transaction.amount?.total)) throw new NotifyRefused("malformed");
      return {
        orderId: transaction.out_trade_no,
        outcome: transaction.trade_state === "SUCCESS" ? "paid" : "failed",
        tradeNo: transaction.transaction_id ?? null,
        paidFen: transaction.amount!.total!,
      };
    },
  };
}
