import { createCipheriv, createSign, createVerify, generateKeyPairSync, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { alipayProvider } from "./alipay.ts";
import { wechatProvider } from "./wechat.ts";
import { NotifyRefused, type PaymentOrderView, type QueryContext } from "./provider.ts";

/** Keys made here, for the test only: the adapters verify with whatever public key they are configured with. */
function rsaKeys() {
  return generateKeyPairSync("rsa", {
    modulusLength: 2048,
    publicKeyEncoding: { type: "spki", format: "pem" },
    privateKeyEncoding: { type: "pkcs8", format: "pem" },
  });
}

/**
 * A stand-in for a provider's gateway on a local port: the adapter's real HTTP request arrives
 * here; `answer` decides the reply. The last request is kept for the test to check its signature.
 */
function fakeGateway(
  answer: (request: { method: string; url: string; headers: IncomingMessage["headers"]; body: string }, response: ServerResponse) => void,
) {
  const requests: { method: string; url: string; headers: IncomingMessage["headers"]; body: string }[] = [];
  const server = createServer((request, response) => {
    let body = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => (body += chunk));
    request.on("end", () => {
      const seen = { method: request.method ?? "", url: request.url ?? "", headers: request.headers, body };
      requests.push(seen);
      answer(seen, response);
    });
  });
  return {
    requests,
    start: () =>
      new Promise<string>((resolve) =>
        server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
      ),
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The sandbox's query reads our database; the live providers ignore the context. */
const noContext = {} as QueryContext;

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

describe("Alipay order query (alipay.trade.query through alipay-sdk)", () => {
  const merchant = rsaKeys();
  const alipay = rsaKeys();
  const order: PaymentOrderView = { id: "tp_CCCCCCCCCCCCCCCC", amount: 5, priceFen: 500, method: "alipay" };
  /** What the gateway answers next: the response object and the key it is signed with. */
  let next: { response: Record<string, string>; key: string; tamper?: boolean } = { response: {}, key: alipay.privateKey };
  const gateway = fakeGateway((request, response) => {
    const inner = JSON.stringify(next.response);
    const sign = createSign("RSA-SHA256").update(inner).sign(next.key, "base64");
    const body = `{"alipay_trade_query_response":${next.tamper ? inner.replace("5.00", "500.00") : inner},"sign":"${sign}"}`;
    response.writeHead(200, { "content-type": "application/json;charset=utf-8" }).end(body);
  });
  let provider: ReturnType<typeof alipayProvider>;
  beforeAll(async () => {
    const url = await gateway.start();
    provider = alipayProvider({
      appId: "2021000000000000",
      privateKey: merchant.privateKey,
      alipayPublicKey: alipay.publicKey,
      gateway: `${url}/gateway.do`,
    });
  });
  afterAll(() => gateway.stop());
  const answer = (response: Record<string, string>, options: { key?: string; tamper?: boolean } = {}) => {
    next = { response, key: options.key ?? alipay.privateKey, ...(options.tamper ? { tamper: true } : {}) };
  };
  const trade = { code: "10000", msg: "Success", out_trade_no: order.id, trade_no: "2026112622009", total_amount: "5.00" };

  it("asks for the order with a request signed by our key and reads a paid answer signed by Alipay", async () => {
    answer({ ...trade, trade_status: "TRADE_SUCCESS" });
    expect(await provider.queryOrder(order, noContext)).toEqual({ state: "paid", tradeNo: "2026112622009", paidFen: 500 });
    // The request Alipay would receive: alipay.trade.query for our order, signed RSA2 with the merchant key.
    const request = gateway.requests.at(-1)!;
    const params = Object.fromEntries([...new URL(request.url, "http://gateway").searchParams, ...new URLSearchParams(request.body)]);
    expect(params.method).toBe("alipay.trade.query");
    expect(JSON.parse(params.biz_content!)).toEqual({ out_trade_no: order.id });
    const { sign, ...signed } = params;
    const content = Object.keys(signed)
      .sort()
      .map((name) => `${name}=${signed[name]}`)
      .join("&");
    expect(createVerify("RSA-SHA256").update(content).verify(merchant.publicKey, sign!, "base64")).toBe(true);
  });

  it("reads waiting and unknown trades as open and a closed one as failed", async () => {
    answer({ ...trade, trade_status: "WAIT_BUYER_PAY" });
    expect(await provider.queryOrder(order, noContext)).toEqual({ state: "open" });
    answer({ code: "40004", msg: "Business Failed", sub_code: "ACQ.TRADE_NOT_EXIST", sub_msg: "交易不存在" });
    expect(await provider.queryOrder(order, noContext)).toEqual({ state: "open" });
    answer({ ...trade, trade_status: "TRADE_CLOSED" });
    expect(await provider.queryOrder(order, noContext)).toMatchObject({ state: "failed" });
  });

  it("refuses an answer signed with another key, changed after signing, or about another order", async () => {
    answer({ ...trade, trade_status: "TRADE_SUCCESS" }, { key: rsaKeys().privateKey });
    await expect(provider.queryOrder(order, noContext)).rejects.toThrow();
    answer({ ...trade, trade_status: "TRADE_SUCCESS" }, { tamper: true });
    await expect(provider.queryOrder(order, noContext)).rejects.toThrow();
    answer({ ...trade, out_trade_no: "tp_DDDDDDDDDDDDDDDD", trade_status: "TRADE_SUCCESS" });
    await expect(provider.queryOrder(order, noContext)).rejects.toThrow(/another order/);
  });
});

describe("WeChat Pay v3 order query (by out_trade_no)", () => {
  const platform = rsaKeys();
  const merchant = rsaKeys();
  const now = new Date("2026-11-26T12:00:00Z");
  const order: PaymentOrderView = { id: "tp_EEEEEEEEEEEEEEEE", amount: 20, priceFen: 2000, method: "wechat" };
  let next: { status: number; body: string; key: string; timestamp?: number } = { status: 200, body: "{}", key: platform.privateKey };
  const gateway = fakeGateway((_request, response) => {
    const timestamp = String(next.timestamp ?? Math.floor(now.getTime() / 1000));
    const nonce = randomBytes(8).toString("hex");
    const signature = createSign("RSA-SHA256").update(`${timestamp}\n${nonce}\n${next.body}\n`).sign(next.key, "base64");
    response
      .writeHead(next.status, {
        "content-type": "application/json",
        "wechatpay-timestamp": timestamp,
        "wechatpay-nonce": nonce,
        "wechatpay-signature": signature,
        "wechatpay-serial": "PLATFORM",
      })
      .end(next.body);
  });
  let provider: ReturnType<typeof wechatProvider>;
  beforeAll(async () => {
    const url = await gateway.start();
    provider = wechatProvider(
      {
        appId: "wx0000",
        merchantId: "1900000000",
        merchantSerial: "SERIAL",
        privateKey: merchant.privateKey,
        platformPublicKey: platform.publicKey,
        apiV3Key: randomBytes(16).toString("hex"),
        gateway: url,
      },
      () => now,
    );
  });
  afterAll(() => gateway.stop());
  const answer = (transaction: Record<string, unknown>, options: { status?: number; key?: string; timestamp?: number } = {}) => {
    next = {
      status: options.status ?? 200,
      body: JSON.stringify(transaction),
      key: options.key ?? platform.privateKey,
      ...(options.timestamp ? { timestamp: options.timestamp } : {}),
    };
  };
  const transaction = { appid: "wx0000", mchid: "1900000000", out_trade_no: order.id, transaction_id: "4200002", amount: { total: 2000 } };

  it("asks with a request signed by our merchant key and reads a paid answer signed by the platform", async () => {
    answer({ ...transaction, trade_state: "SUCCESS" });
    expect(await provider.queryOrder(order, noContext)).toEqual({ state: "paid", tradeNo: "4200002", paidFen: 2000 });
    const request = gateway.requests.at(-1)!;
    expect(request.method).toBe("GET");
    expect(request.url).toBe(`/v3/pay/transactions/out-trade-no/${order.id}?mchid=1900000000`);
    const fields = Object.fromEntries(
      [...request.headers.authorization!.matchAll(/(\w+)="([^"]*)"/g)].map((match) => [match[1]!, match[2]!]),
    );
    expect(request.headers.authorization).toMatch(/^WECHATPAY2-SHA256-RSA2048 /);
    expect(fields).toMatchObject({ mchid: "1900000000", serial_no: "SERIAL" });
    const message = `GET\n${request.url}\n${fields.timestamp}\n${fields.nonce_str}\n\n`;
    expect(createVerify("RSA-SHA256").update(message).verify(merchant.publicKey, fields.signature!, "base64")).toBe(true);
  });

  it("reads unpaid and unknown orders as open and closed ones as failed", async () => {
    answer({ ...transaction, trade_state: "NOTPAY" });
    expect(await provider.queryOrder(order, noContext)).toEqual({ state: "open" });
    answer({ code: "ORDER_NOT_EXIST", message: "订单不存在" }, { status: 404 });
    expect(await provider.queryOrder(order, noContext)).toEqual({ state: "open" });
    answer({ ...transaction, trade_state: "CLOSED" });
    expect(await provider.queryOrder(order, noContext)).toMatchObject({ state: "failed", paidFen: 2000 });
  });

  it("refuses an answer signed with another key, a stale one, and one about another order", async () => {
    answer({ ...transaction, trade_state: "SUCCESS" }, { key: rsaKeys().privateKey });
    await expect(provider.queryOrder(order, noContext)).rejects.toThrow(/bad_signature/);
    answer({ ...transaction, trade_state: "SUCCESS" }, { timestamp: Math.floor(now.getTime() / 1000) - 3600 });
    await expect(provider.queryOrder(order, noContext)).rejects.toThrow(/stale/);
    answer({ ...transaction, out_trade_no: "tp_FFFFFFFFFFFFFFFF", trade_state: "SUCCESS" });
    await expect(provider.queryOrder(order, noContext)).rejects.toThrow(/another order/);
    answer({ code: "SYSTEM_ERROR" }, { status: 500 });
    await expect(provider.queryOrder(order, noContext)).rejects.toThrow(/500/);
  });
});
