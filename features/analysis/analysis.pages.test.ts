import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApi, Visitor, type TestApi } from "../../tests/support/api.ts";
import { createSignedInUser, createWriting } from "../../tests/support/factories.ts";
import { databaseKinds } from "../../tests/support/database.ts";
import { grant } from "../../tests/support/money.ts";
import { shanghaiDay } from "../../common/locale.ts";

/** The creator's analysis pages as plain HTML with server-made SVG charts, in both languages. */
describe.each(databaseKinds)("creator analysis pages on %s", (kind) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi(kind, { pages: true });
  });
  afterAll(() => api.close());
  const db = () => api.database.db;

  it("sends visitors to log in", async () => {
    const visitor = new Visitor(api.app);
    for (const path of ["/creator/analysis/content", "/en/creator/analysis/profit"]) {
      const response = await visitor.get(path);
      expect(response.statusCode).toBe(302);
      expect(response.headers.location).toContain("/login?next=");
    }
  });

  it("shows content figures, a line chart, the filtered views, every piece and a drill-down, in Chinese and English", async () => {
    const creator = await createSignedInUser(api.app, db());
    const reader = await createSignedInUser(api.app, db());
    const writing = await createWriting(db(), creator.user, { title: "图表测试" });
    await reader.visitor.get(`/api/views/writing/${writing.id}/view.gif`);
    await reader.visitor.get(`/api/views/writing/${writing.id}/view.gif`);
    await reader.visitor.request("PUT", `/api/subjects/writing/${writing.id}/reaction/`, { json: { reaction: "like" } });
    const zh = await creator.visitor.get("/creator/analysis/content?days=7&metric=likes");
    expect(zh.statusCode, zh.body.slice(0, 500)).toBe(200);
    expect(zh.body).toContain("内容分析");
    expect(zh.body).toContain("<svg");
    expect(zh.body).toMatch(/\d+月\d+日/);
    expect(zh.body).toContain("图表测试");
    expect(zh.body).toContain("暂定");
    expect(zh.body).toContain("有 1 次浏览未计入");
    expect(zh.body).toContain("<details");
    expect(zh.body).toContain(`subject_id=${writing.id}`);
    expect(zh.body).toMatch(new RegExp(`data-day="${shanghaiDay(api.app.now())}"`));
    const en = await creator.visitor.get(`/en/creator/analysis/content?subject_type=writing&subject_id=${writing.id}`);
    expect(en.statusCode).toBe(200);
    expect(en.body).toContain("Content analysis");
    expect(en.body).toContain("Back to all content");
    expect(en.body).toMatch(/\d+\/\d+/);
    expect((await creator.visitor.get("/creator/analysis/content?from=2026-05-02&to=2026-05-01")).statusCode).toBe(400);
    expect((await reader.visitor.get(`/creator/analysis/content?subject_type=writing&subject_id=${writing.id}`)).statusCode).toBe(404);
  });

  it("shows income by source as stacked bars and per piece", async () => {
    const creator = await createSignedInUser(api.app, db());
    const reader = await createSignedInUser(api.app, db());
    const writing = await createWriting(db(), creator.user, { title: "收益测试", tipEnabled: true });
    await grant(db(), reader.user.id, "sinecoin", 20);
    const tipped = await reader.visitor.request("POST", `/api/subjects/writing/${writing.id}/tips/`, {
      json: { amount: 9 },
      headers: { "idempotency-key": `page-tip-${kind}` },
    });
    expect(tipped.statusCode).toBe(201);
    const zh = await creator.visitor.get("/creator/analysis/profit");
    expect(zh.statusCode).toBe(200);
    expect(zh.body).toContain("收益分析");
    expect(zh.body).toContain("<svg");
    expect(zh.body).toContain("收益测试");
    expect(zh.body).toMatch(/data-key="tips"[^]*?>9<\/dd>/);
    expect(zh.body).toContain("/api/creator/analysis/profit.csv?");
    expect((await creator.visitor.get("/en/creator/analysis/profit?days=90")).body).toContain("Income from tips");
  });
});
