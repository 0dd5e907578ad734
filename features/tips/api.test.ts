import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { createTestApi, type TestApi, type Visitor } from "../../tests/support/api.ts";
import { createBook, createSignedInUser, createUser, createWriting } from "../../tests/support/factories.ts";
import { databaseKinds } from "../../tests/support/database.ts";
import { grant } from "../../tests/support/money.ts";
import { notifications, tips } from "../../server/db/schema/index.ts";
import { checkLedger, ledgerIsConsistent } from "../ledger/check.ts";

describe.each(databaseKinds)("tips on %s", (kind) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi(kind);
  });
  afterAll(() => api.close());
  const db = () => api.database.db;
  let keys = 0;
  const tip = (visitor: Visitor, type: string, id: number, body: unknown, key = `tip-key-${(keys += 1)}-${Date.now()}`) =>
    visitor.request("POST", `/api/subjects/${type}/${id}/tips/`, { json: body, headers: { "idempotency-key": key } });
  const wallet = async (visitor: Visitor) => (await visitor.get("/api/wallet/")).json() as Record<string, number>;

  it("pays the author, lists the tipper, tells the author and records profit; tipping oneself is refused", async () => {
    const author = await createSignedInUser(api.app, db());
    const writing = await createWriting(db(), author.user, { title: "赞赏测试", tipEnabled: true });
    const reader = await createSignedInUser(api.app, db());
    await grant(db(), reader.user.id, "sinecoin", 30);
    const tipped = await tip(reader.visitor, "writing", writing.id, { amount: 12, message: "写得好" }, "tip-once-0001");
    expect(tipped.statusCode, tipped.body).toBe(201);
    expect(tipped.json()).toMatchObject({ amount: 12, author_amount: 12, balance: 18, tip_count: 1 });
    // A retry with the same key answers the same and pays nothing again.
    expect((await tip(reader.visitor, "writing", writing.id, { amount: 12, message: "写得好" }, "tip-once-0001")).json()).toEqual(
      tipped.json(),
    );
    expect(await wallet(reader.visitor)).toMatchObject({ sinecoin: 18 });
    // Profit, but pending its settlement window: not cashable yet.
    expect(await wallet(author.visitor)).toMatchObject({ sinecoin: 12, sinecoin_total_profit: 12, cashoutable_sinecoin_profit: 0 });
    const tippers = (await reader.visitor.get(`/api/subjects/writing/${writing.id}/tips/`)).json() as {
      count: number;
      results: { username: string }[];
    };
    expect(tippers).toMatchObject({ count: 1, results: [{ username: reader.user.username }] });
    const told = await db()
      .select({ verb: notifications.verb })
      .from(notifications)
      .where(and(eq(notifications.recipientId, author.user.id), eq(notifications.verb, "tip.received")));
    expect(told).toHaveLength(1);
    const lines = (await author.visitor.get("/api/wallet/transactions/?kind=tip")).json() as {
      results: { amount: number; title: string; counterparty: string }[];
    };
    expect(lines.results[0]).toMatchObject({ amount: 12, title: "赞赏测试", counterparty: reader.user.nickname });

    const self = await tip(author.visitor, "writing", writing.id, { amount: 1 });
    expect(self.statusCode).toBe(400);
    expect(self.json()).toMatchObject({ code: "cannot_tip_self" });
    const closed = await createWriting(db(), author.user);
    expect((await tip(reader.visitor, "writing", closed.id, { amount: 1 })).json()).toMatchObject({ code: "tips_disabled" });
    expect((await tip(reader.visitor, "comment", 1, { amount: 1 })).statusCode).toBe(404);
    const book = await createBook(db(), author.user);
    expect((await tip(reader.visitor, "book", book.id, { amount: 3 })).statusCode).toBe(201);
    expect((await tip(reader.visitor, "writing", writing.id, { amount: 100 })).json()).toMatchObject({ code: "insufficient_balance" });
  });

  it("lets exactly 10 of 50 concurrent tips through from a balance covering 10, and the ledger checks out", async () => {
    const author = await createUser(db());
    const writing = await createWriting(db(), author, { tipEnabled: true });
    const reader = await createSignedInUser(api.app, db());
    await grant(db(), reader.user.id, "sinecoin", 50);
    const answers = await Promise.all(Array.from({ length: 50 }, () => tip(reader.visitor, "writing", writing.id, { amount: 5 })));
    const statuses = answers.map((answer) => answer.statusCode);
    expect(statuses.filter((status) => status === 201)).toHaveLength(10);
    expect(statuses.filter((status) => status !== 201).every((status) => status === 409)).toBe(true);
    expect(await wallet(reader.visitor)).toMatchObject({ sinecoin: 0 });
    expect(await db().select().from(tips).where(eq(tips.subjectId, writing.id))).toHaveLength(10);
    const report = await checkLedger(db());
    expect(report.mismatchedUsers).toEqual([]);
    expect(ledgerIsConsistent(report)).toBe(true);
  });
});
