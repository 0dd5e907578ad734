import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApi, type TestApi } from "../../tests/support/api.ts";
import { createSignedInUser, createWriting } from "../../tests/support/factories.ts";
import { oneDatabaseKind } from "../../tests/support/database.ts";
import { grant } from "../../tests/support/money.ts";

/** The programme's income details page, in both languages; only participants reach it. */
describe.each(oneDatabaseKind)("the income details page on %s", (kind) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi(kind, { pages: true });
  });
  afterAll(() => api.close());
  const db = () => api.database.db;

  it("lists a tip with who paid, the piece and when it becomes available; Registered users go to /monetization", async () => {
    const author = await createSignedInUser(api.app, db(), { userType: "Official users" });
    const writing = await createWriting(db(), author.user, { title: "明细页面", tipEnabled: true });
    const reader = await createSignedInUser(api.app, db(), { nickname: "页面读者" });
    await grant(db(), reader.user.id, "sinecoin", 25);
    const tipped = await reader.visitor.request("POST", `/api/subjects/writing/${writing.id}/tips/`, {
      json: { amount: 25 },
      headers: { "idempotency-key": `reward-page-tip-${kind}` },
    });
    expect(tipped.statusCode, tipped.body).toBe(201);
    const zh = await author.visitor.get("/monetization/reward");
    expect(zh.statusCode).toBe(200);
    expect(zh.body).toContain("收入明细");
    expect(zh.body).toContain("页面读者");
    expect(zh.body).toContain("明细页面");
    expect(zh.body).toContain("待结算");
    const en = (await author.visitor.get("/en/monetization/reward")).body;
    expect(en).toContain("Income details");
    expect(en).toContain("Pending, available from");
    expect(en).toContain("Tips");
    expect((await author.visitor.get("/monetization/home")).body).toContain('href="/monetization/reward"');
    const result = (await author.visitor.get("/monetization/result")).body;
    expect(result).toContain("月度结算单");
    expect(result).toMatch(/href="\/api\/monetization\/statements\/\d{4}-\d{2}\.csv"/);
    const resultEn = (await author.visitor.get("/en/monetization/result")).body;
    expect(resultEn).toContain("Net income");
    expect(resultEn).toContain("Download CSV");
    expect((await reader.visitor.get("/monetization/result")).headers.location).toBe("/monetization");
    const other = await reader.visitor.get("/monetization/reward");
    expect(other.statusCode).toBe(302);
    expect(other.headers.location).toBe("/monetization");
  });

  it("the creator centre's entry: participants see their figures and every programme page, others how to join", async () => {
    const official = await createSignedInUser(api.app, db(), { userType: "Official users" });
    const zh = await official.visitor.get("/creator/monetization");
    expect(zh.statusCode).toBe(200);
    expect(zh.body).toContain("创作者收益计划");
    expect(zh.body).toContain('href="/monetization/reward"');
    expect(zh.body).toContain('href="/monetization/cashout"');
    expect(zh.body).toContain('href="/monetization/result"');
    expect(zh.body).toContain('href="/creator/monetization"');
    const en = (await official.visitor.get("/en/creator/monetization")).body;
    expect(en).toContain("The monetization programme");
    expect(en).toContain('href="/en/monetization/home"');
    expect(en).toContain("Cashable now");
    const registered = await createSignedInUser(api.app, db());
    const join = (await registered.visitor.get("/en/creator/monetization")).body;
    expect(join).toContain("See how to join");
    expect(join).toContain('href="/en/monetization"');
    expect(join).not.toContain('href="/en/monetization/reward"');
    expect((await api.app.inject({ method: "GET", url: "/creator/monetization" })).statusCode).toBe(302);
  });
});
