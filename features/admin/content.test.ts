import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, desc, eq } from "drizzle-orm";
import { createTestApi, Visitor, type TestApi } from "../../tests/support/api.ts";
import { createEntry, createSignedInUser, createUser, createWriting } from "../../tests/support/factories.ts";
import { databaseKinds } from "../../tests/support/database.ts";
import {
  announcements,
  auditLog,
  encyclopediaEntries,
  knownLoginIps,
  moderationCases,
  moderationDecisions,
  notifications,
  users,
  writings,
} from "../../server/db/schema/index.ts";

describe.each(databaseKinds)("admin content and announcements on %s", (kind) => {
  let api: TestApi;
  let admin: Visitor;
  let moderator: Visitor;
  let member: Visitor;
  let reader: Visitor;
  beforeAll(async () => {
    api = await createTestApi(kind, { jobs: true });
    const a = await createSignedInUser(api.app, db());
    await db().update(users).set({ siteRole: "admin" }).where(eq(users.id, a.user.id));
    admin = a.visitor;
    const m = await createSignedInUser(api.app, db());
    await db().update(users).set({ siteRole: "moderator" }).where(eq(users.id, m.user.id));
    moderator = m.visitor;
    member = (await createSignedInUser(api.app, db())).visitor;
    reader = (await createSignedInUser(api.app, db())).visitor;
  });
  afterAll(() => api.close());
  const db = () => api.database.db;
  const reason = "breaks rule 3";
  const draft = { title_zh: "维护通知", title_en: "Maintenance", body_zh: "今晚维护。", body_en: "Down tonight." };

  it("answers the role × action matrix on the content and announcement routes: visitor 401, user 403, moderator and admin 2xx", async () => {
    const author = await createUser(db());
    const writing = await createWriting(db(), author);
    const entry = await createEntry(db(), 1, author);
    const routes: { method: string; url: string | (() => Promise<string>); json?: unknown; ok: number }[] = [
      { method: "GET", url: "/api/admin/content/", ok: 200 },
      { method: "POST", url: `/api/admin/content/writing/${writing.id}/moderation/`, json: { action: "hide", reason }, ok: 200 },
      { method: "POST", url: `/api/admin/content/entry/${entry.id}/protection/`, json: { protected: true, reason }, ok: 200 },
      { method: "GET", url: "/api/admin/announcements/", ok: 200 },
      { method: "POST", url: "/api/admin/announcements/", json: { ...draft, reason }, ok: 201 },
      {
        method: "POST",
        // A fresh announcement for each asker, so that each may withdraw one.
        url: async () => {
          const [row] = await db()
            .insert(announcements)
            .values({ ...draftRow(), announcedAt: new Date() })
            .returning();
          return `/api/admin/announcements/${row!.id}/withdraw/`;
        },
        json: { reason },
        ok: 200,
      },
    ];
    for (const route of routes) {
      const urlOf = async () => (typeof route.url === "string" ? route.url : route.url());
      const ask = async (visitor: Visitor) =>
        visitor.request(route.method, await urlOf(), route.json === undefined ? {} : { json: route.json });
      const url = await urlOf();
      expect((await ask(new Visitor(api.app))).statusCode, `visitor ${url}`).toBe(401);
      const refused = await ask(member);
      expect([refused.statusCode, refused.json().code], `user ${url}`).toEqual([403, "forbidden"]);
      expect((await ask(moderator)).statusCode, `moderator ${url}`).toBe(route.ok);
      expect((await ask(admin)).statusCode, `admin ${url}`).toBe(route.ok);
    }
  });

  it("requires a reason on each content and announcement write", async () => {
    const author = await createUser(db());
    const writing = await createWriting(db(), author);
    const entry = await createEntry(db(), 1, author);
    const [row] = await db()
      .insert(announcements)
      .values({ ...draftRow(), announcedAt: new Date() })
      .returning();
    for (const [url, json] of [
      [`/api/admin/content/writing/${writing.id}/moderation/`, { action: "hide" }],
      [`/api/admin/content/entry/${entry.id}/protection/`, { protected: true, reason: " " }],
      ["/api/admin/announcements/", draft],
      [`/api/admin/announcements/${row!.id}/withdraw/`, {}],
    ] as const) {
      const answer = await moderator.request("POST", url, { json });
      expect([answer.statusCode, answer.json().code], url).toEqual([400, "reason_required"]);
    }
    expect((await db().select().from(writings).where(eq(writings.id, writing.id)))[0]!.hiddenAt).toBeNull();
  });

  it("finds content by kind, author, circle and text, hides it through a moderation case the author is told about, and restores it", async () => {
    const author = await createUser(db());
    const writing = await createWriting(db(), author, { title: "Spammy offer zq7" });
    await createWriting(db(), author, { title: "Harmless notes" });
    const search = async (query: Record<string, string>) =>
      (await moderator.get(`/api/admin/content/?${new URLSearchParams(query)}`)).json().results as { type: string; id: number }[];
    expect((await search({ q: "zq7" })).map((r) => [r.type, r.id])).toEqual([["writing", writing.id]]);
    expect((await search({ kind: "writing", author: author.username })).length).toBe(2);
    expect((await search({ kind: "entry", author: author.username })).length).toBe(0);
    expect((await search({ circle: "1", q: "zq7" })).length).toBe(1);

    const hidden = await moderator.post(`/api/admin/content/writing/${writing.id}/moderation/`, { action: "hide", reason: "Advertising" });
    expect([hidden.statusCode, hidden.json()]).toEqual([200, { hidden: true }]);
    expect((await db().select().from(writings).where(eq(writings.id, writing.id)))[0]!.hiddenAt).not.toBeNull();
    // Still found by staff while hidden, marked so.
    expect((await search({ q: "zq7" }))[0]).toMatchObject({ id: writing.id, hidden: true });
    const [decided] = await db()
      .select()
      .from(moderationCases)
      .where(and(eq(moderationCases.subjectType, "writing"), eq(moderationCases.subjectId, writing.id)));
    expect(decided).toMatchObject({ status: "decided", decision: "hide", hidden: true });
    const [decision] = await db().select().from(moderationDecisions).where(eq(moderationDecisions.caseId, decided!.id));
    expect(decision!.note).toBe("Advertising");
    const told = await db()
      .select()
      .from(notifications)
      .where(and(eq(notifications.recipientId, author.id), eq(notifications.verb, "moderation.decided")));
    expect(told.length).toBe(1);
    const [audit] = await db()
      .select()
      .from(auditLog)
      .where(eq(auditLog.target, `writing:${writing.id}`))
      .orderBy(desc(auditLog.id));
    expect(audit).toMatchObject({ action: "content.hide", reason: "Advertising" });

    const restored = await admin.post(`/api/admin/content/writing/${writing.id}/moderation/`, {
      action: "restore",
      reason: "Appeal upheld",
    });
    expect(restored.json()).toEqual({ hidden: false });
    expect((await db().select().from(writings).where(eq(writings.id, writing.id)))[0]!.hiddenAt).toBeNull();
  });

  it("protects and unprotects an entry, audited", async () => {
    const entry = await createEntry(db(), 1, await createUser(db()));
    const url = `/api/admin/content/entry/${entry.id}/protection/`;
    expect((await moderator.post(url, { protected: true, reason: "Edit war" })).json()).toEqual({ protected: true });
    expect((await db().select().from(encyclopediaEntries).where(eq(encyclopediaEntries.id, entry.id)))[0]!.protected).toBe(true);
    expect((await moderator.post(url, { protected: false, reason: "Calm again" })).json()).toEqual({ protected: false });
    const rows = await db()
      .select()
      .from(auditLog)
      .where(eq(auditLog.target, `entry:${entry.id}`))
      .orderBy(auditLog.id);
    expect(rows.map((row) => [row.action, row.reason])).toEqual([
      ["entry.protect", "Edit war"],
      ["entry.unprotect", "Calm again"],
    ]);
  });

  it("publishes an announcement now or at its time, and a withdrawn one is neither listed nor counted", async () => {
    const titles = async () =>
      (
        (await reader.get("/api/messages/announcements/", { "accept-language": "en" })).json().results as { subject: { title: string } }[]
      ).map((item) => item.subject.title);
    const count = async () => (await reader.get("/api/Users/get_unread")).json().unread_announcement_count as number;
    await reader.request("PATCH", "/api/Users/read_meg/announcements/", {});
    const before = await count();

    const now = await moderator.post("/api/admin/announcements/", { ...draft, title_en: "Now", reason: "Maintenance window" });
    expect([now.statusCode, now.json().scheduled]).toEqual([201, false]);
    expect(await titles()).toContain("Now");

    const later = new Date(Date.now() + 3600_000).toISOString();
    const scheduled = await moderator.post("/api/admin/announcements/", {
      ...draft,
      title_en: "Later",
      publish_at: later,
      reason: "Planned",
    });
    expect(scheduled.json().scheduled).toBe(true);
    expect(await titles()).not.toContain("Later");
    const listed = (await moderator.get("/api/admin/announcements/")).json().results as { id: number; status: string }[];
    expect(listed.find((item) => item.id === scheduled.json().id)?.status).toBe("scheduled");
    // Its time comes (moved into the past here), and the job sends it once.
    await db()
      .update(announcements)
      .set({ publishAt: new Date(Date.now() - 1000) })
      .where(eq(announcements.id, scheduled.json().id));
    await api.jobs!.runJobNow("publish-announcements");
    await api.jobs!.runJobNow("publish-announcements");
    expect(await titles()).toContain("Later");
    expect(await count()).toBe(before + 2);

    const withdrawn = await admin.post(`/api/admin/announcements/${now.json().id}/withdraw/`, { reason: "Wrong date" });
    expect(withdrawn.statusCode).toBe(200);
    expect(await titles()).not.toContain("Now");
    expect(await count()).toBe(before + 1);
    expect((await admin.post(`/api/admin/announcements/${now.json().id}/withdraw/`, { reason: "again" })).statusCode).toBe(404);
    const audit = await db()
      .select()
      .from(auditLog)
      .where(eq(auditLog.target, `announcement:${now.json().id}`))
      .orderBy(auditLog.id);
    expect(audit.map((row) => row.action)).toEqual(["announcement.publish", "announcement.withdraw"]);
  });

  it("resets a nickname and avatar that break the rules (audited, the user told) and lists accounts sharing a sign-in address", async () => {
    const user = await createUser(db(), { nickname: "Buy followers here" });
    await db().update(users).set({ avatar: "/attach/rude", avatarSmall: "/attach/rude-small" }).where(eq(users.id, user.id));
    const twin = await createUser(db());
    await db()
      .insert(knownLoginIps)
      .values([
        { userId: user.id, ip: "203.0.113.9" },
        { userId: twin.id, ip: "203.0.113.9" },
      ]);
    const detail = (await moderator.get(`/api/admin/users/${user.id}/`)).json();
    expect(detail.linked_accounts).toEqual([{ id: twin.id, username: twin.username, nickname: twin.nickname, addresses: ["203.0.113.9"] }]);

    const url = `/api/admin/users/${user.id}/reset/`;
    expect((await new Visitor(api.app).post(url, { fields: ["nickname"], reason })).statusCode).toBe(401);
    expect((await member.post(url, { fields: ["nickname"], reason })).statusCode).toBe(403);
    expect((await moderator.post(url, { fields: ["nickname"] })).json().code).toBe("reason_required");
    const reset = await moderator.post(url, { fields: ["nickname", "avatar"], reason: "Advertising in the nickname" });
    expect(reset.json()).toEqual({ nickname: user.username, avatar: null });
    const [row] = await db().select().from(users).where(eq(users.id, user.id));
    expect([row!.nickname, row!.avatar, row!.avatarSmall]).toEqual([user.username, null, null]);
    const told = await db()
      .select()
      .from(notifications)
      .where(and(eq(notifications.recipientId, user.id), eq(notifications.verb, "user.profile_reset")));
    expect(told.length).toBe(1);
    const [audit] = await db().select().from(auditLog).where(eq(auditLog.action, "user.reset_profile")).orderBy(desc(auditLog.id));
    expect(audit).toMatchObject({
      target: `user:${user.id}`,
      reason: "Advertising in the nickname",
      before: { nickname: "Buy followers here" },
    });
  });
  it("filters the audit log by Beijing days, both included", async () => {
    const row = (at: string, target: string) => ({
      actorName: "cli",
      actorRole: "cli",
      action: "test.days",
      target,
      reason: "command line",
      createdAt: new Date(at),
    });
    // 23:30 on 1 March in Beijing is still 1 March, though it is 15:30 UTC.
    await db()
      .insert(auditLog)
      .values([row("2026-02-28T15:59:00Z", "day:0228"), row("2026-03-01T15:30:00Z", "day:0301"), row("2026-03-01T16:00:00Z", "day:0302")]);
    const targets = async (query: string) =>
      ((await moderator.get(`/api/admin/audit/?action=test.days&${query}`)).json().results as { target: string }[]).map((r) => r.target);
    expect(await targets("from=2026-03-01&to=2026-03-01")).toEqual(["day:0301"]);
    expect(await targets("from=2026-03-01")).toEqual(["day:0302", "day:0301"]);
    expect(await targets("to=2026-03-01")).toEqual(["day:0301", "day:0228"]);
    expect((await moderator.get("/api/admin/audit/?from=yesterday")).statusCode).toBe(400);
  });
});

function draftRow() {
  return { titleZh: "旧公告", titleEn: "Old", bodyZh: "正文", bodyEn: "Body" };
}
