import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { createTestApi, Visitor, type TestApi } from "../../tests/support/api.ts";
import { createCircle, createSignedInUser, createWriting, factoryPassword } from "../../tests/support/factories.ts";
import { databaseKinds } from "../../tests/support/database.ts";
import { circles, notifications } from "../../server/db/schema/index.ts";
import { invalidate } from "../../server/lib/invalidation.ts";
import { circlesTag, circleTag } from "../../server/lib/cache-tags.ts";

describe.each(databaseKinds)("notifications on %s", (kind) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi(kind);
  });
  afterAll(() => api.close());
  const db = () => api.database.db;

  const unread = async (visitor: Visitor) => (await visitor.get("/api/Users/get_unread")).json() as Record<string, number>;
  const list = async (visitor: Visitor, category: string, cursor?: string) => {
    const response = await visitor.get(`/api/messages/${category}/${cursor ? `?cursor=${cursor}` : ""}`);
    expect(response.statusCode).toBe(200);
    return response.json() as {
      results: {
        id: number;
        category: string;
        verb: string;
        count: number;
        actors: { username: string }[];
        subject: { type: string; id: number; title: string; url: string | null };
        decision?: { action: string; role: string; note: string };
        unread: boolean;
      }[];
      next_cursor: string | null;
    };
  };
  const like = (visitor: Visitor, id: number) =>
    visitor.request("PUT", `/api/subjects/writing/${id}/reaction/`, { json: { reaction: "like" } });

  it("tells a user of a new follower once, counts it, zeroes it with read_meg, and takes it back on unfollow", async () => {
    const { user: star, visitor: starVisitor } = await createSignedInUser(api.app, db());
    const { user: fan, visitor: fanVisitor } = await createSignedInUser(api.app, db());
    expect((await fanVisitor.request("POST", `/api/Users/follow/${star.username}/`)).statusCode).toBe(200);
    // Following again changes nothing: one row per cause.
    await fanVisitor.request("POST", `/api/Users/follow/${star.username}/`);
    expect((await unread(starVisitor)).unread_follow_count).toBe(1);
    const follows = await list(starVisitor, "follow");
    expect(follows.results).toMatchObject([
      { category: "follow", verb: "user.followed", count: 1, unread: true, actors: [{ username: fan.username }] },
    ]);
    // Nobody is told of their own acts.
    expect((await list(fanVisitor, "follow")).results).toEqual([]);

    expect((await starVisitor.request("PATCH", "/api/Users/read_meg/follow/", { json: {} })).statusCode).toBe(204);
    expect((await unread(starVisitor)).unread_follow_count).toBe(0);
    expect((await list(starVisitor, "follow")).results[0]!.unread).toBe(false);

    await fanVisitor.request("DELETE", `/api/Users/follow/${star.username}/`);
    expect((await list(starVisitor, "follow")).results).toEqual([]);
    void fan;
  });

  it("groups likes of one subject into one line with exact counts, never tells of one's own like, and drops a taken-back like", async () => {
    const { user: author, visitor: authorVisitor } = await createSignedInUser(api.app, db());
    const writing = await createWriting(db(), author, { title: "被点赞的文章" });
    const fans = await Promise.all([1, 2, 3].map(() => createSignedInUser(api.app, db())));
    for (const fan of fans) expect((await like(fan.visitor, writing.id)).statusCode).toBe(200);
    expect((await like(authorVisitor, writing.id)).statusCode).toBe(200);

    expect((await unread(authorVisitor)).unread_like_count).toBe(3);
    const likes = await list(authorVisitor, "like-favorite");
    expect(likes.results).toHaveLength(1);
    expect(likes.results[0]).toMatchObject({
      category: "like",
      count: 3,
      subject: { type: "writing", id: writing.id, title: "被点赞的文章" },
    });
    // The newest liker first.
    expect(likes.results[0]!.actors.map((actor) => actor.username)).toEqual(fans.map((fan) => fan.user.username).reverse());

    // A like turned into a dislike, and a like taken back, leave the group.
    await fans[2]!.visitor.request("PUT", `/api/subjects/writing/${writing.id}/reaction/`, { json: { reaction: "dislike" } });
    await fans[1]!.visitor.request("DELETE", `/api/subjects/writing/${writing.id}/reaction/`);
    expect((await unread(authorVisitor)).unread_like_count).toBe(1);
    expect((await list(authorVisitor, "like-favorite")).results[0]).toMatchObject({
      count: 1,
      actors: [{ username: fans[0]!.user.username }],
    });

    // Favourites are their own line and counter; like-favorite zeroes both.
    await fans[1]!.visitor.request("PUT", `/api/subjects/writing/${writing.id}/favorite/`, { json: {} });
    expect(await unread(authorVisitor)).toMatchObject({ unread_like_count: 1, unread_favorite_count: 1 });
    expect((await list(authorVisitor, "like-favorite")).results.map((line) => line.category)).toEqual(["favorite", "like"]);
    await authorVisitor.request("PATCH", "/api/Users/read_meg/like-favorite/", { json: {} });
    expect(await unread(authorVisitor)).toMatchObject({ unread_like_count: 0, unread_favorite_count: 0 });
  });

  it("tells of comments and replies in their own lists, and deletes a line (another user's is not found)", async () => {
    const { user: author, visitor: authorVisitor } = await createSignedInUser(api.app, db());
    const { visitor: reader } = await createSignedInUser(api.app, db());
    const writing = await createWriting(db(), author, { title: "有评论的文章" });
    const posted = await reader.post(`/api/writings/${writing.id}/comments/`, { body: "写得好" });
    expect(posted.statusCode).toBe(201);
    const reply = await authorVisitor.post(`/api/writings/${writing.id}/comments/`, { body: "谢谢", parent_id: posted.json().id });
    expect(reply.statusCode).toBe(201);

    expect((await unread(authorVisitor)).unread_comment_count).toBe(1);
    expect((await unread(reader)).unread_replies).toBe(1);
    const comments = await list(authorVisitor, "comment");
    expect(comments.results).toMatchObject([
      { category: "comment", subject: { type: "comment", title: expect.stringContaining("写得好") } },
    ]);
    expect((await list(reader, "reply")).results).toMatchObject([{ category: "reply" }]);

    // Another user's notification is not found.
    expect((await reader.request("DELETE", `/api/messages/notifications/${comments.results[0]!.id}/`)).statusCode).toBe(404);

    const replies = await list(reader, "reply");
    expect((await reader.request("DELETE", `/api/messages/notifications/${replies.results[0]!.id}/`)).statusCode).toBe(204);
    expect((await list(reader, "reply")).results).toEqual([]);
    expect((await unread(reader)).unread_replies).toBe(0);
  });

  it("drops a line about something the recipient may no longer read, and deleting the subject takes its notifications", async () => {
    const { user: author, visitor: authorVisitor } = await createSignedInUser(api.app, db());
    const { visitor: fan } = await createSignedInUser(api.app, db());
    const circle = await createCircle(db());
    const writing = await createWriting(db(), author, { title: "将要隐藏", circleId: circle.id });
    const comment = await fan.post(`/api/writings/${writing.id}/comments/`, { body: "请教一下" });
    await authorVisitor.post(`/api/writings/${writing.id}/comments/`, { body: "好的", parent_id: comment.json().id });
    expect((await list(fan, "reply")).results).toHaveLength(1);

    // The circle becomes members-only and the fan is no member: the line drops out when read.
    await db().update(circles).set({ visibility: "members" }).where(eq(circles.id, circle.id));
    await invalidate([circleTag(circle.id), circlesTag]);
    expect((await list(fan, "reply")).results).toEqual([]);

    const other = await createWriting(db(), author, { title: "将要删除" });
    await like(fan, other.id);
    expect((await unread(authorVisitor)).unread_like_count).toBe(1);
    expect((await authorVisitor.request("DELETE", `/api/writings/${other.id}/`)).statusCode).toBe(204);
    const left = await db().select().from(notifications).where(eq(notifications.subjectId, other.id));
    expect(left.filter((row) => row.subjectType === "writing")).toEqual([]);
    expect((await unread(authorVisitor)).unread_like_count).toBe(0);
  });

  it("sends a system notice to the owner when their password is changed", async () => {
    const { visitor } = await createSignedInUser(api.app, db());
    const changed = await visitor.post("/api/Users/password/", {
      old_password: factoryPassword,
      password: "N3w-passw0rd!",
      confirm_password: "N3w-passw0rd!",
    });
    expect(changed.statusCode).toBe(200);
    expect((await unread(visitor)).unread_sysmeg_count).toBe(1);
    expect((await list(visitor, "system")).results).toMatchObject([{ category: "system", verb: "user.password_changed" }]);
  });

  it("tells the reporter and the author what moderators decided, also once the subject is hidden or deleted", async () => {
    const { user: author, visitor: authorVisitor } = await createSignedInUser(api.app, db());
    const { visitor: reporter } = await createSignedInUser(api.app, db());
    const { visitor: moderator } = await createSignedInUser(api.app, db(), { siteRole: "moderator" });
    const writing = await createWriting(db(), author, { title: "被举报的文章" });
    const filed = await reporter.post(`/api/subjects/writing/${writing.id}/reports/`, { reason: "spam", description: "广告" });
    expect(filed.statusCode, filed.body).toBe(201);
    const decide = (action: string, note: string) =>
      moderator.post(`/api/moderation/cases/${filed.json().case_id}/resolve/`, { action, note });

    expect((await decide("hide", "违规广告")).statusCode).toBe(200);
    // The reporter can no longer open the article, and still reads the decision, titled, without a link.
    const reporterNotice = (await list(reporter, "system")).results;
    expect(reporterNotice).toMatchObject([
      {
        verb: "moderation.decided",
        subject: { type: "writing", id: writing.id, title: "被举报的文章", url: null },
        decision: { action: "hide", role: "reporter", note: "违规广告" },
      },
    ]);
    // The author still may open it (with the hidden notice), and is told as its author.
    expect((await list(authorVisitor, "system")).results[0]).toMatchObject({
      subject: { url: expect.stringContaining(`/writing/${writing.id}`) },
      decision: { action: "hide", role: "author" },
    });

    // Deleting takes every other notification about it, never the decisions.
    expect((await decide("delete", "删除")).statusCode).toBe(200);
    const afterDelete = (await list(authorVisitor, "system")).results;
    expect(afterDelete.map((line) => line.decision?.action)).toEqual(["delete", "hide"]);
    expect(afterDelete[0]).toMatchObject({ subject: { title: "被举报的文章", url: null }, decision: { role: "author" } });
    expect((await unread(reporter)).unread_sysmeg_count).toBe(2);
  });

  it("tells the owner of a sign-in from a new place, never of the first one or of a known address", async () => {
    const { user, visitor } = await createSignedInUser(api.app, db());
    const signInFrom = async (remoteAddress: string) => {
      const response = await new Visitor(api.app, {}, { remoteAddress }).post("/api/Users/login/", {
        username: user.username,
        password: factoryPassword,
      });
      expect(response.statusCode, response.body).toBe(200);
    };
    await signInFrom("203.0.113.7");
    const before = (await unread(visitor)).unread_sysmeg_count;
    await signInFrom("203.0.113.7");
    expect((await unread(visitor)).unread_sysmeg_count).toBe(before);
    await signInFrom("198.51.100.9");
    expect((await unread(visitor)).unread_sysmeg_count).toBe(before + 1);
    expect((await list(visitor, "system")).results[0]).toMatchObject({
      verb: "user.signed_in_new_place",
      subject: { type: "user", id: user.id },
    });
  });

  it("answers 404 unknown_category for an unknown list and 401 for visitors", async () => {
    const { visitor } = await createSignedInUser(api.app, db());
    const unknown = await visitor.get("/api/messages/everything/");
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().code).toBe("unknown_category");
  });
});
