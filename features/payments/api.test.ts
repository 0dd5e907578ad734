import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { createTestApi, type TestApi, type Visitor } from "../../tests/support/api.ts";
import { createSignedInUser } from "../../tests/support/factories.ts";
import { databaseKinds } from "../../tests/support/database.ts";
import { paymentCallbacks } from "../../server/db/schema/index.ts";
import { checkLedger, ledgerIsConsistent } from "../ledger/check.ts";
import { paymentSettings } from "./settings.ts";
import { sandboxSignatureHeader, signSandboxNotify, type SandboxNotifyBody } from "./sandbox.ts";
import { expireOrders } from "./service.ts";

describe.each(databaseKinds)("top-ups through the payment sandbox on %s", (kind) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi(kind);
  });
  afterAll(() => api.close());
  const db = () => api.database.db;

  const topup = (visitor: Visitor, body: unknown, key?: string) =>
    visitor.request("POST", "/api/wallet/topups/", { json: body, headers: key ? { "idempotency-key": key } : {} });
  const notify = (rawBody: string, header: string) =>
    api.app.inject({
      method: "POST",
      url: "/api/payments/sandbox/notify/",
      headers: { "content-type": "application/json", [sandboxSignatureHeader]: header },
      payload: rawBody,
    });
  const sign = (body: SandboxNotifyBody) => signSandboxNotify(paymentSettings().sandboxSecret, body);
  const sinecoin = async (visitor: Visitor) => ((await visitor.get("/api/wallet/")).json() as { sinecoin: number }).sinecoin;

  it("creates an order once per key and credits a signed paid notify exactly once, however often it comes", async () => {
    const { visitor } = await createSignedInUser(api.app, db());
    expect((await topup(visitor, { amount: 50, method: "wechat" })).statusCode).toBe(400);
    const created = await topup(visitor, { amount: 50, method: "wechat" }, "topup-key-0001");
    expect(created.statusCode, created.body).toBe(201);
    const { order_id: orderId, pay_url: payUrl } = created.json() as { order_id: string; pay_url: string };
    expect(payUrl).toBe(`/payments/sandbox/${orderId}`);
    expect((await topup(visitor, { amount: 50, method: "wechat" }, "topup-key-0001")).json()).toMatchObject({ order_id: orderId });
    expect((await topup(visitor, { amount: 20, method: "wechat" }, "topup-key-0001")).statusCode).toBe(422);
    expect((await visitor.get(`/api/wallet/topups/${orderId}/`)).json()).toMatchObject({
      status: "created",
      amount: 50,
      provider: "sandbox",
    });

    const paid = sign({ order_id: orderId, status: "paid", amount: 50, paid_fen: 0, trade_no: "sandbox_1" });
    const answers = await Promise.all([notify(paid.rawBody, paid.header), notify(paid.rawBody, paid.header)]);
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200]);
    expect((await notify(paid.rawBody, paid.header)).statusCode).toBe(200);
    expect(await sinecoin(visitor)).toBe(50);
    expect((await visitor.get(`/api/wallet/topups/${orderId}/`)).json()).toMatchObject({ status: "paid" });
    const outcomes = (await db().select().from(paymentCallbacks).where(eq(paymentCallbacks.orderId, orderId)))
      .map((row) => row.outcome)
      .sort();
    expect(outcomes).toEqual(["credited", "replayed", "replayed"]);
    expect(ledgerIsConsistent(await checkLedger(db()))).toBe(true);
    // Someone else's order does not exist for them.
    const other = await createSignedInUser(api.app, db());
    expect((await other.visitor.get(`/api/wallet/topups/${orderId}/`)).statusCode).toBe(404);
  });

  it("refuses and logs a forged signature, a wrong amount and an unknown order, crediting nothing", async () => {
    const { visitor } = await createSignedInUser(api.app, db());
    const { order_id: orderId } = (await topup(visitor, { amount: 20, method: "alipay" }, "topup-key-0002")).json() as { order_id: string };
    const forged = signSandboxNotify("not-the-secret", { order_id: orderId, status: "paid", amount: 20, paid_fen: 0, trade_no: "x" });
    const forgedAnswer = await notify(forged.rawBody, forged.header);
    expect(forgedAnswer.statusCode).toBe(400);
    expect(forgedAnswer.json()).toMatchObject({ code: "payment_refused" });
    // A genuine signature over another body is no signature for this one.
    const genuine = sign({ order_id: orderId, status: "paid", amount: 20, paid_fen: 0, trade_no: "x" });
    expect((await notify(genuine.rawBody.replace('"amount":20', '"amount":200'), genuine.header)).statusCode).toBe(400);
    const wrongAmount = sign({ order_id: orderId, status: "paid", amount: 200, paid_fen: 0, trade_no: "x" });
    expect((await notify(wrongAmount.rawBody, wrongAmount.header)).statusCode).toBe(400);
    const unknown = sign({ order_id: "tp_AAAAAAAAAAAAAAAA", status: "paid", amount: 20, paid_fen: 0, trade_no: "x" });
    expect((await notify(unknown.rawBody, unknown.header)).statusCode).toBe(400);
    expect((await notify("{}", "")).statusCode).toBe(400);
    expect(await sinecoin(visitor)).toBe(0);
    expect((await visitor.get(`/api/wallet/topups/${orderId}/`)).json()).toMatchObject({ status: "created" });
    const refused = await db().select({ outcome: paymentCallbacks.outcome }).from(paymentCallbacks);
    expect(refused.map((row) => row.outcome)).toEqual(
      expect.arrayContaining(["refused:bad_signature", "refused:wrong_amount", "refused:unknown_order"]),
    );
  });

  it("fails an order on a failed notify and expires an unpaid one after 15 minutes", async () => {
    const { visitor } = await createSignedInUser(api.app, db());
    const first = (await topup(visitor, { amount: 10, method: "wechat" }, "topup-key-0003")).json() as { order_id: string };
    const failed = sign({ order_id: first.order_id, status: "failed", amount: 10, paid_fen: 0, trade_no: "f" });
    expect((await notify(failed.rawBody, failed.header)).statusCode).toBe(200);
    expect((await visitor.get(`/api/wallet/topups/${first.order_id}/`)).json()).toMatchObject({ status: "failed" });
    const second = (await topup(visitor, { amount: 10, method: "wechat" }, "topup-key-0004")).json() as { order_id: string };
    expect(await expireOrders(db(), new Date(Date.now() + 5 * 60_000))).toBe(0);
    expect(await expireOrders(db(), new Date(Date.now() + 16 * 60_000))).toBeGreaterThanOrEqual(1);
    expect((await visitor.get(`/api/wallet/topups/${second.order_id}/`)).json()).toMatchObject({ status: "expired" });
    expect(await sinecoin(visitor)).toBe(0);
  });
});
