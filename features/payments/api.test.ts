import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { eq, inArray } from "drizzle-orm";
import { createTestApi, type TestApi, type Visitor } from "../../tests/support/api.ts";
import { createSignedInUser } from "../../tests/support/factories.ts";
import { databaseKinds } from "../../tests/support/database.ts";
import { ledgerTransactions, paymentCallbacks, paymentOrders } from "../../server/db/schema/index.ts";
import { checkLedger, ledgerIsConsistent } from "../ledger/check.ts";
import { configurePayments, paymentSettings } from "./settings.ts";
import { economySettings } from "../wallet/settings.ts";
import { recordSandboxPayment, sandboxSignatureHeader, signSandboxNotify, type SandboxNotifyBody } from "./sandbox.ts";
import { createTopup, expireOrders, freeTopupLeft, refreshTopup, settleByQuery } from "./service.ts";

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

  /** What the sandbox cashier records when the payer presses pay, without its notify (as if it were lost on the way). */
  const payAtCashier = async (orderId: string, outcome: "paid" | "failed" = "paid") => {
    const [order] = await db().select().from(paymentOrders).where(eq(paymentOrders.id, orderId));
    return recordSandboxPayment(db(), order!, outcome, new Date());
  };
  const logs: string[] = [];
  const log = (message: string) => logs.push(message);

  it("credits a payment whose notify never came when the payer opens the order, and fails a failed one", async () => {
    const { visitor } = await createSignedInUser(api.app, db());
    const { order_id: orderId } = (await topup(visitor, { amount: 20, method: "alipay" }, "topup-key-0005")).json() as { order_id: string };
    // Not paid yet: the query leaves it open.
    expect((await visitor.get(`/api/wallet/topups/${orderId}/`)).json()).toMatchObject({ status: "created" });
    await payAtCashier(orderId);
    expect((await visitor.get(`/api/wallet/topups/${orderId}/`)).json()).toMatchObject({ status: "paid" });
    expect((await visitor.get(`/api/wallet/topups/${orderId}/`)).json()).toMatchObject({ status: "paid" });
    expect(await sinecoin(visitor)).toBe(20);
    const outcomes = await db()
      .select({ outcome: paymentCallbacks.outcome })
      .from(paymentCallbacks)
      .where(eq(paymentCallbacks.orderId, orderId));
    expect(outcomes.map((row) => row.outcome)).toEqual(["query:credited"]);
    // The notify arriving late finds it paid.
    const record = await payAtCashier(orderId);
    const late = sign({ order_id: orderId, status: "paid", amount: 20, paid_fen: record.paidFen, trade_no: record.tradeNo });
    expect((await notify(late.rawBody, late.header)).statusCode).toBe(200);
    expect(await sinecoin(visitor)).toBe(20);

    const { order_id: failedId } = (await topup(visitor, { amount: 10, method: "wechat" }, "topup-key-0006")).json() as {
      order_id: string;
    };
    await payAtCashier(failedId, "failed");
    expect((await visitor.get(`/api/wallet/topups/${failedId}/`)).json()).toMatchObject({ status: "failed" });
    expect(await sinecoin(visitor)).toBe(20);
    expect(ledgerIsConsistent(await checkLedger(db()))).toBe(true);
  });

  it("asks the provider before expiring: a lost notify's payment is credited, an unpaid order expires", async () => {
    const { visitor } = await createSignedInUser(api.app, db());
    const { order_id: paidId } = (await topup(visitor, { amount: 50, method: "wechat" }, "topup-key-0007")).json() as { order_id: string };
    const { order_id: unpaidId } = (await topup(visitor, { amount: 10, method: "wechat" }, "topup-key-0008")).json() as {
      order_id: string;
    };
    await payAtCashier(paidId);
    const later = new Date(Date.now() + 16 * 60_000);
    expect(await expireOrders(db(), later, log)).toBeGreaterThanOrEqual(1);
    expect((await visitor.get(`/api/wallet/topups/${paidId}/`)).json()).toMatchObject({ status: "paid" });
    expect((await visitor.get(`/api/wallet/topups/${unpaidId}/`)).json()).toMatchObject({ status: "expired" });
    expect(await sinecoin(visitor)).toBe(50);
    // Run again: nothing left to do for these two.
    expect(await expireOrders(db(), later, log)).toBe(0);
    expect(await sinecoin(visitor)).toBe(50);
    // Paid after its 15 minutes but before the job came by: the payer's return still asks, and credits.
    const { user } = await createSignedInUser(api.app, db());
    const { orderId: lateId } = await createTopup(
      { db: db() },
      user.id,
      { amount: 30, method: "alipay" },
      "topup-key-0009",
      new Date(),
      "en",
    );
    expect((await refreshTopup(db(), user.id, lateId, later, log)).status).toBe("expired");
    await payAtCashier(lateId);
    expect((await refreshTopup(db(), user.id, lateId, later, log)).status).toBe("paid");
  });

  it("caps free top-ups per account per Shanghai day (409 topup_daily_limit) and says what is left", async () => {
    const { user, visitor } = await createSignedInUser(api.app, db());
    expect((await topup(visitor, { amount: 400, method: "wechat" }, "topup-key-cap-1")).statusCode).toBe(201);
    const beyond = await topup(visitor, { amount: 101, method: "wechat" }, "topup-key-cap-2");
    expect(beyond.statusCode).toBe(409);
    expect(beyond.json()).toMatchObject({ code: "topup_daily_limit" });
    expect((await topup(visitor, { amount: 100, method: "alipay" }, "topup-key-cap-3")).statusCode).toBe(201);
    expect((await topup(visitor, { amount: 1, method: "alipay" }, "topup-key-cap-4")).statusCode).toBe(409);
    // What the top-up page says is left today.
    expect(await freeTopupLeft(db(), user.id, new Date())).toBe(0);
  });

  it("closes top-ups in production unless a provider is named, and says which provider is on", async () => {
    const secret = "test-session-secret-for-payments";
    const sandboxSecret = paymentSettings().sandboxSecret;
    try {
      expect(configurePayments(secret, { NODE_ENV: "production" })).toMatch(/closed/);
      const { visitor } = await createSignedInUser(api.app, db());
      const closed = await topup(visitor, { amount: 10, method: "wechat" }, "topup-key-closed-1");
      expect(closed.statusCode).toBe(503);
      expect(closed.json()).toMatchObject({ code: "topups_closed" });
      expect(configurePayments(secret, { NODE_ENV: "production", PAYMENT_PROVIDER: "sandbox" })).toMatch(/sandbox/);
      expect(configurePayments(secret, { NODE_ENV: "development" })).toMatch(/sandbox/);
    } finally {
      configurePayments(secret, { PAYMENT_SANDBOX_SECRET: sandboxSecret, NODE_ENV: "test" });
    }
  });

  it("keeps a failed or expired order so: a late valid paid notify credits nothing and is recorded for a refund by hand", async () => {
    const { visitor } = await createSignedInUser(api.app, db());
    const { order_id: failedId } = (await topup(visitor, { amount: 40, method: "wechat" }, "topup-key-final-1")).json() as {
      order_id: string;
    };
    const failed = sign({ order_id: failedId, status: "failed", amount: 40, paid_fen: 0, trade_no: "sandbox_f1" });
    expect((await notify(failed.rawBody, failed.header)).statusCode).toBe(200);
    const paid = sign({ order_id: failedId, status: "paid", amount: 40, paid_fen: 0, trade_no: "sandbox_f1" });
    expect((await notify(paid.rawBody, paid.header)).statusCode).toBe(200);
    expect((await visitor.get(`/api/wallet/topups/${failedId}/`)).json()).toMatchObject({ status: "failed" });
    expect(await sinecoin(visitor)).toBe(0);

    const { order_id: expiredId } = (await topup(visitor, { amount: 30, method: "alipay" }, "topup-key-final-2")).json() as {
      order_id: string;
    };
    await db().update(paymentOrders).set({ status: "expired", settledAt: new Date() }).where(eq(paymentOrders.id, expiredId));
    const latePaid = sign({ order_id: expiredId, status: "paid", amount: 30, paid_fen: 0, trade_no: "sandbox_f2" });
    expect((await notify(latePaid.rawBody, latePaid.header)).statusCode).toBe(200);
    expect((await visitor.get(`/api/wallet/topups/${expiredId}/`)).json()).toMatchObject({ status: "expired" });
    expect(await sinecoin(visitor)).toBe(0);
    const outcomes = await db()
      .select({ outcome: paymentCallbacks.outcome })
      .from(paymentCallbacks)
      .where(inArray(paymentCallbacks.orderId, [failedId, expiredId]));
    expect(outcomes.map((row) => row.outcome).sort()).toEqual(["failed", "late_paid", "late_paid"]);
    expect(ledgerIsConsistent(await checkLedger(db()))).toBe(true);
  });

  it("credits once when the notify, the payer's query and the expiry job's query race, many times over", async () => {
    const { user, visitor } = await createSignedInUser(api.app, db());
    // 550 sinecoin in one day: past the free daily cap, which is not this test's subject.
    const cap = economySettings.freeTopupDailyLimit;
    economySettings.freeTopupDailyLimit = 1_000_000;
    onTestFinished(() => {
      economySettings.freeTopupDailyLimit = cap;
    });
    const rounds = 25;
    const orderIds: string[] = [];
    for (let round = 0; round < rounds; round += 1) {
      // Made by the use case itself: the endpoint's rate limit (30 a minute) is not this test's subject.
      const { orderId } = await createTopup(
        { db: db() },
        user.id,
        { amount: 10 + round, method: round % 2 ? "wechat" : "alipay" },
        `topup-race-${round}-key`,
        new Date(),
        "zh-CN",
      );
      orderIds.push(orderId);
      const record = await payAtCashier(orderId);
      const paid = sign({ order_id: orderId, status: "paid", amount: 10 + round, paid_fen: record.paidFen, trade_no: record.tradeNo });
      const [order] = await db().select().from(paymentOrders).where(eq(paymentOrders.id, orderId));
      const answers = await Promise.all([
        notify(paid.rawBody, paid.header),
        visitor.get(`/api/wallet/topups/${orderId}/`),
        settleByQuery(db(), order!, new Date(), log),
        notify(paid.rawBody, paid.header),
        visitor.get(`/api/wallet/topups/${orderId}/`),
      ]);
      expect(answers[0].statusCode).toBe(200);
      expect(answers[1].statusCode).toBe(200);
    }
    const expected = Array.from({ length: rounds }, (_, round) => 10 + round).reduce((sum, amount) => sum + amount, 0);
    expect(await sinecoin(visitor)).toBe(expected);
    const posted = await db()
      .select({ key: ledgerTransactions.idempotencyKey })
      .from(ledgerTransactions)
      .where(
        inArray(
          ledgerTransactions.idempotencyKey,
          orderIds.map((id) => `topup:${id}`),
        ),
      );
    expect(posted).toHaveLength(rounds);
    // Exactly one of the racers credited each order; the others found it paid.
    const callbacks = await db()
      .select({ orderId: paymentCallbacks.orderId, outcome: paymentCallbacks.outcome })
      .from(paymentCallbacks)
      .where(inArray(paymentCallbacks.orderId, orderIds));
    for (const orderId of orderIds) {
      const credited = callbacks.filter((row) => row.orderId === orderId && row.outcome.endsWith("credited"));
      expect(credited).toHaveLength(1);
    }
    const statuses = await db().select({ status: paymentOrders.status }).from(paymentOrders).where(eq(paymentOrders.userId, user.id));
    expect(statuses.every((row) => row.status === "paid")).toBe(true);
    expect(ledgerIsConsistent(await checkLedger(db()))).toBe(true);
  });
});
