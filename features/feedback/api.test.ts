import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { createTestApi, Visitor, type TestApi } from "../../tests/support/api.ts";
import { createSignedInUser } from "../../tests/support/factories.ts";
import { databaseKinds } from "../../tests/support/database.ts";
import { auditLog, events, feedback } from "../../server/db/schema/index.ts";
import { feedbackRateLimit } from "./service.ts";

describe.each(databaseKinds)("feedback API on %s", (kind) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi(kind);
  });
  afterAll(() => api.close());
  const db = () => api.database.db;
  const send = (visitor: Visitor, body: unknown, headers?: Record<string, string>) => visitor.post("/api/feedback/", body, headers);

  it("sends feedback and shows it, with its status, to its sender only", async () => {
    const { visitor: sender } = await createSignedInUser(api.app, db());
    const { visitor: other } = await createSignedInUser(api.app, db());
    const created = await send(sender, { category: "bug", message: "  搜索页打不开  ", page_path: "/search" });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({ category: "bug", message: "搜索页打不开", page_path: "/search", status: "new", reply: "" });
    const [event] = await db().select().from(events).where(eq(events.verb, "feedback.sent"));
    expect(event).toMatchObject({ subjectId: expect.any(Number), data: { feedbackId: created.json().id, category: "bug" } });

    const mine = await sender.get("/api/feedback/");
    expect(mine.statusCode).toBe(200);
    expect(mine.headers["cache-control"]).toBe("private, no-store");
    expect(mine.json().results.map((row: { id: number }) => row.id)).toEqual([created.json().id]);
    const theirs = await other.get("/api/feedback/");
    expect(theirs.json().results).toEqual([]);
  });

  it("needs sign-in to send or list", async () => {
    const visitor = new Visitor(api.app);
    expect((await send(visitor, { category: "other", message: "hello" })).statusCode).toBe(401);
    expect((await visitor.get("/api/feedback/")).statusCode).toBe(401);
  });

  it("refuses bad input with localized 400s", async () => {
    const { visitor } = await createSignedInUser(api.app, db());
    const empty = await send(visitor, { category: "bug", message: "   " });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().fields.message).toBe("请填写反馈内容。");
    const english = await send(visitor, { category: "nonsense", message: "x".repeat(2001) }, { "accept-language": "en" });
    expect(english.statusCode).toBe(400);
    expect(english.json().fields).toMatchObject({
      category: "Please choose what the feedback is about.",
      message: "Feedback has at most 2000 characters.",
    });
    const page = await send(visitor, { category: "bug", message: "ok", page_path: "https://evil.example/" }, { "accept-language": "en" });
    expect(page.json().fields.page_path).toBe("The page must be a path on this site.");
    const separator = await send(visitor, { category: "bug", message: "ok", page_path: "/a\u2028b" }, { "accept-language": "en" });
    expect(separator.statusCode).toBe(400);
    expect((await send(visitor, { category: "bug", message: "ok", extra: 1 })).statusCode).toBe(400);
  });

  it("limits feedback per sender per hour (429 rate_limited)", async () => {
    const { visitor } = await createSignedInUser(api.app, db());
    for (let index = 0; index < feedbackRateLimit.max; index += 1) {
      expect((await send(visitor, { category: "suggestion", message: `想法 ${index}` })).statusCode).toBe(201);
    }
    const refused = await send(visitor, { category: "suggestion", message: "再来一个" });
    expect(refused.statusCode).toBe(429);
    expect(refused.json().code).toBe("rate_limited");
  });

  it("lets only site admins list everyone's feedback and set its status; the sender sees the new status and reply", async () => {
    const { visitor: sender } = await createSignedInUser(api.app, db());
    const { visitor: moderator } = await createSignedInUser(api.app, db(), { siteRole: "moderator" });
    const { user: adminUser, visitor: admin } = await createSignedInUser(api.app, db(), { siteRole: "admin" });
    const id = (await send(sender, { category: "content", message: "有一篇文章抄袭" })).json().id as number;

    for (const visitor of [sender, moderator]) {
      expect((await visitor.get("/api/admin/feedback/")).statusCode).toBe(403);
      const refused = await visitor.post(`/api/admin/feedback/${id}/status/`, { status: "resolved" });
      expect(refused.statusCode).toBe(403);
    }
    expect((await new Visitor(api.app).post(`/api/admin/feedback/${id}/status/`, { status: "resolved" })).statusCode).toBe(401);

    const listed = await admin.get("/api/admin/feedback/?status=new");
    expect(listed.statusCode).toBe(200);
    expect(listed.json().results.some((row: { id: number }) => row.id === id)).toBe(true);
    expect((await admin.get("/api/admin/feedback/?status=bogus")).statusCode).toBe(400);

    const bad = await admin.post(`/api/admin/feedback/${id}/status/`, { status: "done" }, { "accept-language": "en" });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields.status).toBe("Please choose a status.");
    expect((await admin.post("/api/admin/feedback/999999/status/", { status: "resolved", reason: "checked" })).statusCode).toBe(404);
    // Every decision carries a reason, kept in the audit log.
    const blank = await admin.post(`/api/admin/feedback/${id}/status/`, { status: "in_progress", reply: "正在核实" });
    expect([blank.statusCode, blank.json().code]).toEqual([400, "reason_required"]);

    const set = await admin.post(`/api/admin/feedback/${id}/status/`, { status: "in_progress", reply: "正在核实", reason: "转给内容组" });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toMatchObject({ status: "in_progress", reply: "正在核实" });
    const [row] = await db().select().from(feedback).where(eq(feedback.id, id));
    expect(row).toMatchObject({ status: "in_progress", handledBy: adminUser.id });
    const seen = (await sender.get("/api/feedback/")).json().results[0];
    expect(seen).toMatchObject({ id, status: "in_progress", reply: "正在核实" });
    const [changed] = await db().select().from(events).where(eq(events.verb, "feedback.status_changed"));
    expect(changed?.data).toEqual({ feedbackId: id, from: "new", to: "in_progress" });
    const [audited] = await db()
      .select()
      .from(auditLog)
      .where(eq(auditLog.target, `feedback:${id}`));
    expect(audited).toMatchObject({
      action: "feedback.status",
      actorId: adminUser.id,
      reason: "转给内容组",
      before: { status: "new" },
      after: { status: "in_progress", reply: "正在核实" },
    });
    // The sender is told among their system notices.
    expect((await sender.get("/api/messages/system/")).body).toContain("feedback.status_changed");
  });
});
