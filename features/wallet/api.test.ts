import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { createTestApi, type TestApi, type Visitor } from "../../tests/support/api.ts";
import { createSignedInUser } from "../../tests/support/factories.ts";
import { databaseKinds } from "../../tests/support/database.ts";
import { inTransaction } from "../../server/lib/transactions.ts";
import { postLedgerTransaction, type Currency } from "../ledger/service.ts";
import { checkLedger, ledgerIsConsistent } from "../ledger/check.ts";
import { grant } from "../../tests/support/money.ts";

describe.each(databaseKinds)("wallet and ledger promises on %s", (kind) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi(kind);
  });
  afterAll(() => api.close());
  const db = () => api.database.db;
  const exchange = (visitor: Visitor, gold: number, key?: string) =>
    visitor.request("POST", "/api/wallet/exchange/", { json: { gold }, headers: key ? { "idempotency-key": key } : {} });
  const wallet = async (visitor: Visitor) => (await visitor.get("/api/wallet/")).json() as Record<string, number>;

  it("shows the ledger's balances in the wallet and in LoginAuth", async () => {
    const { user, visitor } = await createSignedInUser(api.app, db());
    await grant(db(), user.id, "sinecoin", 30);
    await grant(db(), user.id, "gold", 7);
    expect(await wallet(visitor)).toEqual({
      sinecoin: 30,
      gold: 7,
      sinecoin_total_profit: 0,
      sinecoin_total_cashout: 0,
      cashoutable_sinecoin_profit: 0,
    });
    const auth = (await visitor.get("/api/Users/LoginAuth/")).json() as Record<string, number>;
    expect(auth).toMatchObject({ sinecoin: 30, gold: 7, sinecoin_total_profit: 0, cashoutable_sinecoin_profit: 0 });
  });

  it("exchanges gold once per idempotency key, replays the first answer and refuses a different body", async () => {
    const { user, visitor } = await createSignedInUser(api.app, db());
    await grant(db(), user.id, "gold", 100);
    expect((await exchange(visitor, 20)).json()).toMatchObject({ code: "idempotency_key_required" });
    const first = await exchange(visitor, 20, "exchange-key-1");
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ gold: 80, sinecoin: 2, exchanged_gold: 20, received_sinecoin: 2 });
    const again = await exchange(visitor, 20, "exchange-key-1");
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    const mismatch = await exchange(visitor, 30, "exchange-key-1");
    expect(mismatch.statusCode).toBe(422);
    expect(mismatch.json()).toMatchObject({ code: "idempotency_mismatch" });
    expect(await wallet(visitor)).toMatchObject({ gold: 80, sinecoin: 2 });
    // Not a multiple of the rate, more than the balance: refused, nothing moved.
    expect((await exchange(visitor, 15, "exchange-key-2")).json()).toMatchObject({ code: "validation_failed" });
    const overdraw = await exchange(visitor, 90, "exchange-key-3");
    expect(overdraw.statusCode).toBe(409);
    expect(overdraw.json()).toMatchObject({ code: "insufficient_balance" });
    expect(await wallet(visitor)).toMatchObject({ gold: 80, sinecoin: 2 });
    const lines = (await visitor.get("/api/wallet/transactions/?currency=gold")).json() as { results: { kind: string; amount: number }[] };
    expect(lines.results.map((line) => [line.kind, line.amount])).toEqual([
      ["exchange", -20],
      ["grant", 100],
    ]);
    const exchanges = (await visitor.get("/api/wallet/transactions/?kind=exchange")).json() as { results: { currency: Currency }[] };
    expect(exchanges.results.map((line) => line.currency).sort()).toEqual(["gold", "sinecoin"]);
  });

  it("lets the database refuse an overdraft, whoever posts it", async () => {
    const { user } = await createSignedInUser(api.app, db());
    await grant(db(), user.id, "sinecoin", 5);
    const overdraw = inTransaction({ db: db() }, (tx) =>
      postLedgerTransaction(tx, {
        idempotencyKey: `overdraw:${user.id}`,
        kind: "grant",
        data: { reason: "test" },
        entries: [
          { account: { userId: user.id, currency: "sinecoin" }, amount: -6 },
          { account: { system: "test_sink", currency: "sinecoin" }, amount: 6 },
        ],
      }),
    );
    await expect(overdraw).rejects.toMatchObject({ code: "insufficient_balance" });
    // The constraint itself, not only the application: a raw update is refused too.
    await expect(db().execute(sql`update users set sinecoin = -1 where id = ${user.id}`)).rejects.toThrow();
    // Entries are immutable: corrections are new transactions.
    await expect(db().execute(sql`update ledger_entries set amount = amount + 1`)).rejects.toThrow();
  });

  it("lets exactly as many of 50 concurrent exchanges through as the balance covers, then the ledger checks out", async () => {
    const { user, visitor } = await createSignedInUser(api.app, db());
    await grant(db(), user.id, "gold", 100);
    const answers = await Promise.all(Array.from({ length: 50 }, (_, index) => exchange(visitor, 10, `burst-${user.id}-${index}`)));
    const statuses = answers.map((answer) => answer.statusCode);
    expect(statuses.filter((status) => status === 200)).toHaveLength(10);
    expect(statuses.filter((status) => status !== 200).every((status) => status === 409)).toBe(true);
    expect(await wallet(visitor)).toMatchObject({ gold: 0, sinecoin: 10 });
    const report = await checkLedger(db());
    expect(report.mismatchedUsers).toEqual([]);
    expect(ledgerIsConsistent(report)).toBe(true);
  });

  it("keeps the payout account masked", async () => {
    const { visitor } = await createSignedInUser(api.app, db());
    expect((await visitor.get("/api/wallet/payout_account/")).json()).toBeNull();
    const bad = await visitor.request("PUT", "/api/wallet/payout_account/", { json: { alipay_account: "nope", real_name: "张三" } });
    expect(bad.statusCode).toBe(400);
    const saved = await visitor.request("PUT", "/api/wallet/payout_account/", {
      json: { alipay_account: "13800138000", real_name: "张三丰" },
    });
    expect(saved.json()).toEqual({ provider: "alipay", account: "138****8000", real_name: "**丰" });
    expect((await visitor.get("/api/wallet/payout_account/")).json()).toEqual({
      provider: "alipay",
      account: "138****8000",
      real_name: "**丰",
    });
    // WeChat is the second provider on the same endpoint: the account is the payee's openid.
    const badOpenid = await visitor.request("PUT", "/api/wallet/payout_account/", {
      json: { provider: "wechat", account: "no spaces!", real_name: "张三丰" },
    });
    expect(badOpenid.json()).toMatchObject({ code: "validation_failed", fields: { account: expect.any(String) } });
    const wechat = await visitor.request("PUT", "/api/wallet/payout_account/", {
      json: { provider: "wechat", account: "oUpF8uMuAJO_M2pxb1Q9zNjWeS6o", real_name: "张三丰" },
    });
    expect(wechat.json()).toEqual({ provider: "wechat", account: "oUp****eS6o", real_name: "**丰" });
  });
});
