import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { createTestApi, type TestApi } from "../../tests/support/api.ts";
import { createSignedInUser } from "../../tests/support/factories.ts";
import { databaseKinds } from "../../tests/support/database.ts";
import { notifications } from "../../server/db/schema/index.ts";

const announcement = { title_zh: "维护通知", title_en: "Maintenance", body_zh: "今晚维护。", body_en: "Down tonight." };

describe.each(databaseKinds)("announcements and muting on %s", (kind) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi(kind);
  });
  afterAll(() => api.close());
  const db = () => api.database.db;

  it("site moderators publish in both languages; every user sees it in their language and in their counter until read", async () => {
    const { visitor: moderator } = await createSignedInUser(api.app, db(), { siteRole: "moderator" });
    const { visitor: member } = await createSignedInUser(api.app, db());
    const { visitor: reader } = await createSignedInUser(api.app, db());

    const refused = await member.post("/api/announcements/", announcement);
    expect(refused.statusCode).toBe(403);
    const invalid = await moderator.post("/api/announcements/", { ...announcement, title_en: " " }, { "accept-language": "en" });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().fields).toEqual({ title_en: "A title has 1 to 100 characters." });

    const counter = async (visitor: typeof member) => (await visitor.get("/api/Users/get_unread")).json().unread_announcement_count;
    const before = await counter(reader);
    const published = await moderator.post("/api/announcements/", announcement);
    expect(published.statusCode).toBe(201);
    expect(await counter(reader)).toBe(before + 1);
    expect(await counter(member)).toBe(before + 1);

    const english = (await reader.get("/api/messages/announcements/", { "accept-language": "en" })).json();
    expect(english.results[0]).toMatchObject({
      id: published.json().id,
      category: "announcements",
      subject: { type: "announcement", title: "Maintenance" },
      text: "Down tonight.",
      unread: true,
    });
    const chinese = (await reader.get("/api/messages/announcements/", { "accept-language": "zh-CN" })).json();
    expect(chinese.results[0]).toMatchObject({ subject: { title: "维护通知" }, text: "今晚维护。" });

    expect((await reader.request("PATCH", "/api/Users/read_meg/announcements/")).statusCode).toBe(204);
    expect(await counter(reader)).toBe(0);
    expect(await counter(member)).toBe(before + 1);
    expect((await reader.get("/api/messages/announcements/")).json().results[0].unread).toBe(false);
  });

  it("mutes categories: no notification and no counter for them, system notices cannot be muted", async () => {
    const { user: star, visitor: starVisitor } = await createSignedInUser(api.app, db());
    const { visitor: fan } = await createSignedInUser(api.app, db());
    expect((await starVisitor.get("/api/messages/preferences/")).json()).toMatchObject({ muted: [] });

    const saved = await starVisitor.request("PUT", "/api/messages/preferences/", { json: { muted: ["follow", "like", "announcements"] } });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().muted).toEqual(["like", "follow", "announcements"]);
    const system = await starVisitor.request("PUT", "/api/messages/preferences/", { json: { muted: ["system"] } });
    expect(system.statusCode).toBe(400);

    expect((await fan.post(`/api/Users/follow/${star.username}/`)).statusCode).toBe(200);
    const rows = await db()
      .select()
      .from(notifications)
      .where(and(eq(notifications.recipientId, star.id), eq(notifications.category, "follow")));
    expect(rows).toEqual([]);
    const { visitor: moderator } = await createSignedInUser(api.app, db(), { siteRole: "admin" });
    await moderator.post("/api/announcements/", announcement);
    const counts = (await starVisitor.get("/api/Users/get_unread")).json();
    expect(counts).toMatchObject({ unread_follow_count: 0, unread_announcement_count: 0 });

    // Notified again once unmuted.
    await starVisitor.request("PUT", "/api/messages/preferences/", { json: { muted: [] } });
    await fan.request("DELETE", `/api/Users/follow/${star.username}/`);
    await fan.post(`/api/Users/follow/${star.username}/`);
    const again = (await starVisitor.get("/api/Users/get_unread")).json();
    expect(again.unread_follow_count).toBe(1);
    expect(again.unread_announcement_count).toBeGreaterThan(0);
  });
});
