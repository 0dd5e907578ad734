import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { createTestApi, Visitor, type TestApi } from "../../tests/support/api.ts";
import { createSignedInUser, createUser } from "../../tests/support/factories.ts";
import { databaseKinds } from "../../tests/support/database.ts";
import { announcements, chatMessages, notifications, unreadCounters } from "../../server/db/schema/index.ts";
import { announcementsTag } from "../../server/lib/cache-tags.ts";
import { readCategories, type UnreadCounts } from "./schema.ts";
import { unreadTag } from "./service.ts";
import { invalidate } from "../../server/lib/invalidation.ts";

const allCounters: (keyof UnreadCounts)[] = [
  "answer_count",
  "unread_comment_count",
  "unread_replies",
  "unread_announcement_count",
  "unread_sysmeg_count",
  "unread_like_count",
  "unread_favorite_count",
  "unread_follow_count",
  "unread_private_chat",
  "unread_at_count",
];

describe.each(databaseKinds)("unread counters API on %s", (kind) => {
  let api: TestApi;
  let member: Visitor;
  let userId: number;
  let senderId: number;
  beforeAll(async () => {
    api = await createTestApi(kind);
    const created = await createSignedInUser(api.app, api.database.db);
    member = created.visitor;
    userId = created.user.id;
    senderId = (await createUser(api.database.db)).id;
  });
  afterAll(() => api.close());

  /** Unread notifications of every category (with four announcements and nine private messages), as the handlers would have written them. */
  let nextEvent = 1_000_000;
  const fill = async () => {
    const db = api.database.db;
    await db.delete(notifications).where(eq(notifications.recipientId, userId));
    const counts = { answers: 1, comment: 2, reply: 3, system: 5, like: 6, favorite: 7, follow: 8, at: 10 };
    const rows = Object.entries(counts).flatMap(([category, count]) =>
      Array.from({ length: count }, () => ({
        recipientId: userId,
        category,
        verb: "test.filled",
        eventId: nextEvent++,
        subjectType: "user",
        subjectId: userId,
      })),
    );
    await db.insert(notifications).values(rows);
    // Four announcements not yet read, nine unread private messages.
    if ((await db.select().from(announcements)).length === 0) {
      await db.insert(announcements).values(
        Array.from({ length: 4 }, (_, index) => ({
          titleZh: `公告${index}`,
          titleEn: `Notice ${index}`,
          bodyZh: "正文",
          bodyEn: "Text",
          // Sent already (a scheduled announcement counts only once the job has sent it).
          announcedAt: new Date(),
        })),
      );
    }
    await db.update(unreadCounters).set({ announcementsReadId: 0 }).where(eq(unreadCounters.userId, userId));
    await db.delete(chatMessages).where(eq(chatMessages.recipientId, userId));
    await db.insert(chatMessages).values(Array.from({ length: 9 }, () => ({ senderId: senderId, recipientId: userId, text: "hello" })));
    await invalidate([unreadTag(userId), announcementsTag]);
  };

  it("answers the nine counters for the signed-in user", async () => {
    await fill();
    const response = await member.get("/api/Users/get_unread");
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      answer_count: 1,
      unread_comment_count: 2,
      unread_replies: 3,
      unread_announcement_count: 4,
      unread_sysmeg_count: 5,
      unread_like_count: 6,
      unread_favorite_count: 7,
      unread_follow_count: 8,
      unread_private_chat: 9,
      unread_at_count: 10,
    });
  });

  it("refuses visitors who are not signed in", async () => {
    const anonymous = new Visitor(api.app, { "accept-language": "en" });
    const unread = await anonymous.get("/api/Users/get_unread");
    expect(unread.statusCode).toBe(401);
    expect(unread.json()).toEqual({ code: "not_authenticated", message: "Please log in first." });
    expect((await anonymous.request("PATCH", "/api/Users/read_meg/answers/")).statusCode).toBe(401);
  });

  it.each(Object.entries(readCategories))("marks %s read with 204 and zeroes exactly its counters", async (category, zeroed) => {
    await fill();
    const before = (await member.get("/api/Users/get_unread")).json() as UnreadCounts;
    const response = await member.request("PATCH", `/api/Users/read_meg/${category}/`, { json: {} });
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe("");
    const after = (await member.get("/api/Users/get_unread")).json() as UnreadCounts;
    for (const counter of allCounters) {
      expect(after[counter]).toBe((zeroed as readonly string[]).includes(counter) ? 0 : before[counter]);
    }
  });

  it("zeroes both the like and the favorite counter for like-favorite", async () => {
    await fill();
    expect((await member.request("PATCH", "/api/Users/read_meg/like-favorite/")).statusCode).toBe(204);
    const after = (await member.get("/api/Users/get_unread")).json() as UnreadCounts;
    expect([after.unread_like_count, after.unread_favorite_count, after.unread_follow_count]).toEqual([0, 0, 8]);
  });

  it("gives the counters a version that each read raises, so the browser keeps the newer of two snapshots", async () => {
    await fill();
    const before = await member.get("/api/Users/get_unread");
    const old = Number(before.headers["x-unread-version"]);
    expect(Number.isSafeInteger(old)).toBe(true);
    const read = await member.request("PATCH", "/api/Users/read_meg/follow/");
    expect(read.statusCode).toBe(204);
    const version = Number(read.headers["x-unread-version"]);
    expect(version).toBeGreaterThan(old);
    // Every snapshot read after the read carries at least its version (and shows its zero).
    const after = await member.get("/api/Users/get_unread");
    expect(Number(after.headers["x-unread-version"])).toBe(version);
    expect((after.json() as UnreadCounts).unread_follow_count).toBe(0);
  });

  it("answers 404 for an unknown category and 403 without the CSRF header", async () => {
    const unknown = await member.request("PATCH", "/api/Users/read_meg/everything/");
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().code).toBe("unknown_category");
    const noCsrf = await member.request("PATCH", "/api/Users/read_meg/answers/", { csrf: false });
    expect(noCsrf.statusCode).toBe(403);
  });

  it("rejects a body with unknown fields", async () => {
    const response = await member.request("PATCH", "/api/Users/read_meg/answers/", { json: { everything: true } });
    expect(response.statusCode).toBe(400);
  });
});
