import { createCipheriv, createSign, generateKeyPairSync, randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { alipayProvider } from "./alipay.ts";
import { wechatProvider } from "./wechat.ts";
import { NotifyRefused } from "./provider.ts";

/** Keys made here, for the test only: the adapters verify with whatever public key they are configured with. */
function rsaKeys() {
  return generateKeyPairSync("rsa", {
    modulusLength: 2048,
    publicKeyEncoding: { type: "spki", format: "pem" },
    privateKeyEncoding: { type: "pkcs8", format: "pem" },
  });
}

describe("Alipay notify verification (alipay-sdk)", () => {
  const merchant = rsaKeys();
  const alipay = rsaKeys();
  const provider = alipayProvider({ appId: "2021000000000000", privateKey: merchant.privateKey, alipayPublicKey: alipay.publicKey });

  /** Signs a notify as Alipay does: sorted `key=value` pairs without `sign`, RSA2 (SHA256withRSA). */
  function alipayNotify(fields: Record<string, string>, key = alipay.privateKey): string {
    const content = Object.keys(fields)
      .sort()
      .map((name) => `${name}=${fields[name]}`)
      .join("&");
    const sign = createSign("RSA-SHA256").update(content).sign(key, "base64");
    return new URLSearchParams({ ...fields, sign }).toString();
  }
  const fields = {
    app_id: "2021000000000000",
    out_trade_no: "tp_AAAAAAAAAAAAAAAA",
    trade_no: "2026112622001",
    trade_status: "TRADE_SUCCESS",
    total_amount: "5.00",
    sign_type: "RSA2",
  };

  it("reads a notify signed with Alipay's key", () => {
    expect(provider.verifyNotify({ headers: {}, rawBody: alipayNotify(fields) })).toEqual({
      orderId: "tp_AAAAAAAAAAAAAAAA",
      outcome: "paid",
      tradeNo: "2026112622001",
      paidFen: 500,
    });
  });

  it("refuses a notify signed with another key or changed after signing", () => {
    const forged = alipayNotify(fields, rsaKeys().privateKey);
    expect(() => provider.verifyNotify({ headers: {}, rawBody: forged })).toThrow(NotifyRefused);
    const tampered = alipayNotify(fields).replace("total_amount=5.00", "total_amount=500.00");
    expect(() => provider.verifyNotify({ headers: {}, rawBody: tampered })).toThrow(NotifyRefused);
  });
});

describe("WeChat Pay v3 notify verification", () => {
  const platform = rsaKeys();
  const merchant = rsaKeys();
  const apiV3Key = randomBytes(16).toString("hex");
  const now = new Date("2026-11-26T12:00:00Z");
  const provider = wechatProvider(
    {
      appId: "wx0000",
      merchantId: "1900000000",
      merchantSerial: "SERIAL",
      privateKey: merchant.privateKey,
      platformPublicKey: platform.publicKey,
      apiV3Key,
    },
    () => now,
  );

  /** A notify as WeChat Pay sends it: the resource encrypted with the APIv3 key, the envelope signed with the platform key. */
  function wechatNotify(transaction: Record<string, unknown>, key = platform.privateKey) {
    const nonce = randomBytes(6).toString("hex");
    const cipher = createCipheriv("aes-256-gcm", Buffer.from(apiV3Key, "utf8"), Buffer.from(nonce, "utf8"));
    cipher.setAAD(Buffer.from("transaction", "utf8"));
    const encrypted = Buffer.concat([cipher.update(JSON.stringify(transaction), "utf8"), cipher.final(), cipher.getAuthTag()]);
    const rawBody = JSON.stringify({
      id: "notify-1",
      event_type: "TRANSACTION.SUCCESS",
      resource: { algorithm: "AEAD_AES_256_GCM", ciphertext: encrypted.toString("base64"), nonce, associated_data: "transaction" },
    });
    const timestamp = String(Math.floor(now.getTime() / 1000));
    const headerNonce = randomBytes(8).toString("hex");
    const signature = createSign("RSA-SHA256").update(`${timestamp}\n${headerNonce}\n${rawBody}\n`).sign(key, "base64");
    return {
      rawBody,
      headers: {
        "wechatpay-timestamp": timestamp,
        "wechatpay-nonce": headerNonce,
        "wechatpay-signature": signature,
        "wechatpay-serial": "P",
      },
    };
  }
  const transaction = { out_trade_no: "tp_BBBBBBBBBBBBBBBB", transaction_id: "4200001", trade_state: "SUCCESS", amount: { total: 2000 } };

  it("verifies the platform's signature and decrypts the transaction", () => {
    expect(provider.verifyNotify(wechatNotify(transaction))).toEqual({
      orderId: "tp_BBBBBBBBBBBBBBBB",
      outcome: "paid",
      tradeNo: "4200001",
      paidFen: 2000,
    });
  });

  it("refuses another key's signature and a changed body", () => {
    expect(() => provider.verifyNotify(wechatNotify(transaction, rsaKeys().privateKey))).toThrow(NotifyRefused);
    const notify = wechatNotify(transaction);
    expect(() => provider.verifyNotify({ ...notify, rawBody: notify.rawBody.replace("notify-1", "notify-2") })).toThrow(NotifyRefused);
  });
});
