import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApi, type TestApi } from "../../tests/support/api.ts";
import { createSignedInUser, createWriting } from "../../tests/support/factories.ts";
import { databaseKinds } from "../../tests/support/database.ts";
import { grant } from "../../tests/support/money.ts";
import { listIncome } from "./income.ts";
import { inTransaction } from "../../server/lib/transactions.ts";
import { postLedgerTransaction } from "../ledger/service.ts";
import { settleIncome } from "../settlement/service.ts";

describe.each(databaseKinds)("the programme's earnings at a glance on %s", (kind) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi(kind, { jobs: true });
  });
  afterAll(() => api.close());

  it("answers the viewer's own figures: a tip is pending, counted this month under tips; visitors are refused", async () => {
    const author = await createSignedInUser(api.app, api.database.db);
    const writing = await createWriting(api.database.db, author.user, { title: "收益一览", tipEnabled: true });
    const reader = await createSignedInUser(api.app, api.database.db);
    await grant(api.database.db, reader.user.id, "sinecoin", 30);
    const tipped = await reader.visitor.request("POST", `/api/subjects/writing/${writing.id}/tips/`, {
      json: { amount: 30 },
      headers: { "idempotency-key": `home-tip-${kind}` },
    });
    expect(tipped.statusCode, tipped.body).toBe(201);
    const home = await author.visitor.get("/api/monetization/home/");
    expect(home.statusCode, home.body).toBe(200);
    const answer = home.json();
    expect(answer).toMatchObject({
      wallet: { sinecoin_total_profit: 30, cashoutable_sinecoin_profit: 0 },
      pending: 30,
      debt: 0,
      settlement_days: 7,
      month_total: 30,
    });
    expect(answer.month).toMatch(/^\d{4}-\d{2}$/);
    expect(answer.by_source).toContainEqual({ source: "tips", amount: 30 });
    // The reader sees their own figures, not the author's.
    expect((await reader.visitor.get("/api/monetization/home/")).json()).toMatchObject({ pending: 0, month_total: 0 });
    expect((await api.app.inject({ method: "GET", url: "/api/monetization/home/" })).statusCode).toBe(401);
  });

  it("lists every income line, newest first and paged, pending until settlement makes it available", async () => {
    const author = await createSignedInUser(api.app, api.database.db);
    const writing = await createWriting(api.database.db, author.user, { title: "收入明细", tipEnabled: true });
    const reader = await createSignedInUser(api.app, api.database.db, { nickname: "读者甲" });
    await grant(api.database.db, reader.user.id, "sinecoin", 50);
    for (const [index, amount] of [20, 30].entries()) {
      const tipped = await reader.visitor.request("POST", `/api/subjects/writing/${writing.id}/tips/`, {
        json: { amount },
        headers: { "idempotency-key": `income-tip-${kind}-${index}` },
      });
      expect(tipped.statusCode, tipped.body).toBe(201);
    }
    const income = async () => (await author.visitor.get("/api/monetization/income/")).json();
    const first = await income();
    expect(first.next_cursor).toBeNull();
    expect(first.results.map((line: { amount: number }) => line.amount)).toEqual([30, 20]);
    expect(first.results[0]).toMatchObject({
      kind: "tip",
      source: "tips",
      counterparty: "读者甲",
      title: "收入明细",
      status: "pending",
    });
    expect(first.results[0].url).toContain(String(writing.id));
    expect(new Date(first.results[0].available_at).getTime() - new Date(first.results[0].created_at).getTime()).toBe(7 * 24 * 3600 * 1000);
    const page = await listIncome(api.database.db, author.user.id, {}, 1);
    expect(page.items.map((line) => line.amount)).toEqual([30]);
    const next = await listIncome(api.database.db, author.user.id, { cursor: page.nextCursor! }, 1);
    expect(next).toMatchObject({ items: [{ amount: 20 }], nextCursor: null });
    const asOf = new Date(Date.now() + 8 * 24 * 60 * 60 * 1000).toISOString();
    await api.jobs!.runJobNow("settle-income", { asOf });
    expect((await income()).results.map((line: { status: string }) => line.status)).toEqual(["available", "available"]);
    expect((await reader.visitor.get("/api/monetization/income/")).json()).toEqual({ results: [], next_cursor: null });
    expect((await author.visitor.get("/api/monetization/income/?cursor=abc")).statusCode).toBe(400);
  });

  it("states each month's income by source, refunds and net, downloadable as CSV in the reader's language", async () => {
    const author = await createSignedInUser(api.app, api.database.db);
    const writing = await createWriting(api.database.db, author.user, { title: "月结单", tipEnabled: true });
    const reader = await createSignedInUser(api.app, api.database.db);
    await grant(api.database.db, reader.user.id, "sinecoin", 40);
    const tipped = await reader.visitor.request("POST", `/api/subjects/writing/${writing.id}/tips/`, {
      json: { amount: 40 },
      headers: { "idempotency-key": `statement-tip-${kind}` },
    });
    expect(tipped.statusCode, tipped.body).toBe(201);
    const statements = (await author.visitor.get("/api/monetization/statements/")).json();
    expect(statements.results).toHaveLength(1);
    const [statement] = statements.results;
    expect(statement).toMatchObject({
      income: { tips: 40, unlocks: 0, ads: 0, missions: 0, rewards: 0 },
      refunds: 0,
      net: 40,
      cashouts: { count: 0, amount: 0, fee: 0, tax_withheld_fen: 0, net_fen: 0 },
    });
    expect(statement.csv_url).toBe(`/api/monetization/statements/${statement.month}.csv`);
    const csv = await author.visitor.get(statement.csv_url);
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.headers["content-type"]).toContain("text/csv");
    expect(csv.body.startsWith("\uFEFF")).toBe(true);
    expect(csv.body).toContain("赞赏,40");
    expect(csv.body).toContain("净收入（圈币）,40");
    const en = await author.visitor.request("GET", statement.csv_url, { headers: { "accept-language": "en" } });
    expect(en.body).toContain("Tips,40");
    expect((await reader.visitor.get("/api/monetization/statements/")).json()).toEqual({ results: [] });
    expect((await author.visitor.get("/api/monetization/statements/2026-13.csv")).statusCode).toBe(400);
  });

  it("states what refunds left owed, what settled income recovered and what is still owed at the month's end", async () => {
    const db = api.database.db;
    const author = await createSignedInUser(api.app, db);
    const reader = await createSignedInUser(api.app, db);
    await grant(db, reader.user.id, "sinecoin", 55);
    await grant(db, author.user.id, "sinecoin", 30);
    const described = { writingId: 1, unlockId: 1, authorId: author.user.id, title: "欠款", path: "/t", counterparty: "r" };
    const move = (key: string, kind: "unlock" | "unlock_refund", amount: number) =>
      inTransaction({ db }, (tx) =>
        postLedgerTransaction(tx, {
          idempotencyKey: `${key}:${kind}:${author.user.id}`,
          kind,
          data: described,
          entries: [
            { account: { userId: reader.user.id, currency: "sinecoin" }, amount: kind === "unlock" ? -amount : amount },
            { account: { userId: author.user.id, currency: "sinecoin" }, amount: kind === "unlock" ? amount : -amount },
          ],
        }),
      );
    // 30 pending, then a refund of 60 takes the 30 and leaves 30 owed; 25 more income, once settled, pays 25 of it.
    await move("debt-a", "unlock", 30);
    await move("debt-b", "unlock_refund", 60);
    await move("debt-c", "unlock", 25);
    await settleIncome(db, new Date(Date.now() + 8 * 24 * 60 * 60 * 1000));
    const [statement] = (await author.visitor.get("/api/monetization/statements/")).json().results;
    expect(statement).toMatchObject({ refunds: 60, debt: { incurred: 30, recovered: 25, outstanding: 5 } });
    const csv = (await author.visitor.get(statement.csv_url)).body;
    expect(csv).toContain("退款形成的欠款,30");
    expect(csv).toContain("从收益中抵扣的欠款,25");
    expect(csv).toContain("月末尚欠,5");
    const en = (await author.visitor.request("GET", statement.csv_url, { headers: { "accept-language": "en" } })).body;
    expect(en).toContain("Still owed at month end,5");
    expect((await author.visitor.get("/api/monetization/home/")).json()).toMatchObject({ debt: 5 });
  });
});
