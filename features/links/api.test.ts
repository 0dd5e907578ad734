import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { createTestApi, Visitor, type TestApi } from "../../tests/support/api.ts";
import { createSignedInUser } from "../../tests/support/factories.ts";
import { databaseKinds } from "../../tests/support/database.ts";
import { auditLog, events, friendLinks } from "../../server/db/schema/index.ts";
import { linkSuggestionRateLimit } from "./service.ts";

describe.each(databaseKinds)("friend links API on %s", (kind) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi(kind);
  });
  afterAll(() => api.close());
  const db = () => api.database.db;
  const suggest = (visitor: Visitor, body: unknown, headers?: Record<string, string>) => visitor.post("/api/links/", body, headers);
  const listed = async () =>
    ((await new Visitor(api.app).get("/api/links/")).json().results as { id: number; name: string }[]).map((link) => link.id);

  it("keeps a reader's suggestion pending until a site moderator approves it; rejecting takes it off the list", async () => {
    const { visitor: reader } = await createSignedInUser(api.app, db());
    const { visitor: moderator } = await createSignedInUser(api.app, db(), { siteRole: "moderator" });
    const created = await suggest(reader, { name: "数学之美", url: "https://math.example/", description: "数学科普", language: "zh-CN" });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({ status: "pending", language: "zh-CN", url: "https://math.example/" });
    const id = created.json().id as number;
    expect(await listed()).not.toContain(id);
    expect((await reader.get("/api/links/mine/")).json().results).toMatchObject([{ id, status: "pending" }]);

    const pending = await moderator.get("/api/admin/links/");
    expect(pending.json().results.map((link: { id: number }) => link.id)).toContain(id);
    const unexplained = await moderator.post(`/api/admin/links/${id}/review/`, { decision: "approve" });
    expect([unexplained.statusCode, unexplained.json().code]).toEqual([400, "reason_required"]);
    const approved = await moderator.post(`/api/admin/links/${id}/review/`, { decision: "approve", reason: "内容优质" });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json().status).toBe("approved");
    expect(await listed()).toContain(id);
    const publicAnswer = (await new Visitor(api.app).get("/api/links/")).json().results.find((link: { id: number }) => link.id === id);
    expect(publicAnswer).toEqual({ id, name: "数学之美", url: "https://math.example/", description: "数学科普", language: "zh-CN" });

    await moderator.post(`/api/admin/links/${id}/review/`, { decision: "reject", note: "站点已关闭", reason: "链接失效" });
    const audited = await db()
      .select()
      .from(auditLog)
      .where(eq(auditLog.target, `link:${id}`))
      .orderBy(auditLog.id);
    expect(audited.map((row) => [row.action, row.reason, row.actorRole])).toEqual([
      ["link.approve", "内容优质", "moderator"],
      ["link.reject", "链接失效", "moderator"],
    ]);
    expect(await listed()).not.toContain(id);
    expect((await reader.get("/api/links/mine/")).json().results[0]).toMatchObject({ status: "rejected", review_note: "站点已关闭" });
    const verbs = (await db().select({ verb: events.verb }).from(events)).map((row) => row.verb);
    expect(verbs).toEqual(expect.arrayContaining(["link.suggested", "link.reviewed"]));
  });

  it("lists a site admin's own link at once (staff curate)", async () => {
    const { visitor: admin } = await createSignedInUser(api.app, db(), { siteRole: "admin" });
    const created = await suggest(admin, { name: "Staff pick", url: "https://staff.example/path?q=1", language: "en" });
    expect(created.json().status).toBe("approved");
    expect(await listed()).toContain(created.json().id);
  });

  it("lets no reader review, and no visitor suggest", async () => {
    const { visitor: reader } = await createSignedInUser(api.app, db());
    const id = (await suggest(reader, { name: "Site", url: "https://site.example/" })).json().id as number;
    expect((await reader.get("/api/admin/links/")).statusCode).toBe(403);
    expect((await reader.post(`/api/admin/links/${id}/review/`, { decision: "approve" })).statusCode).toBe(403);
    const [row] = await db().select({ status: friendLinks.status }).from(friendLinks).where(eq(friendLinks.id, id));
    expect(row!.status).toBe("pending");
    const visitor = new Visitor(api.app);
    expect((await suggest(visitor, { name: "Site", url: "https://site.example/" })).statusCode).toBe(401);
    expect((await visitor.post(`/api/admin/links/${id}/review/`, { decision: "approve" })).statusCode).toBe(401);
    const { visitor: moderator } = await createSignedInUser(api.app, db(), { siteRole: "moderator" });
    expect((await moderator.post("/api/admin/links/999999/review/", { decision: "approve", reason: "ok" })).statusCode).toBe(404);
    const bad = await moderator.post(`/api/admin/links/${id}/review/`, { decision: "maybe" }, { "accept-language": "en" });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields.decision).toBe("Please choose approve or reject.");
  });

  it("refuses addresses that are not http(s) and other bad input with localized 400s", async () => {
    const { visitor } = await createSignedInUser(api.app, db());
    for (const url of [
      "javascript:alert(1)",
      "data:text/html,hi",
      "ftp://files.example/",
      "https://",
      "//evil.example",
      "https://user:pw@evil.example/",
    ]) {
      const refused = await suggest(visitor, { name: "Bad", url }, { "accept-language": "en" });
      expect(refused.statusCode, url).toBe(400);
      expect(refused.json().fields.url).toBe("Please enter a web address starting with http:// or https://.");
    }
    const empty = await suggest(visitor, { name: "  ", url: "https://ok.example/" });
    expect(empty.json().fields.name).toBe("请输入网站名称。");
    const separator = await suggest(visitor, { name: "a\u2029b", url: "https://ok.example/" });
    expect(separator.statusCode).toBe(400);
    const language = await suggest(visitor, { name: "ok", url: "https://ok.example/", language: "fr" }, { "accept-language": "en" });
    expect(language.json().fields.language).toBe("Please choose the site's language.");
  });

  it("limits suggestions per reader per day (429 rate_limited)", async () => {
    const { visitor } = await createSignedInUser(api.app, db());
    for (let index = 0; index < linkSuggestionRateLimit.max; index += 1) {
      expect((await suggest(visitor, { name: `站点 ${index}`, url: `https://site${index}.example/` })).statusCode).toBe(201);
    }
    const refused = await suggest(visitor, { name: "再来", url: "https://more.example/" });
    expect(refused.statusCode).toBe(429);
    expect(refused.json().code).toBe("rate_limited");
  });
});
