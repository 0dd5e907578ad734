import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { createTestApi, Visitor, type TestApi } from "../../tests/support/api.ts";
import {
  createCircle,
  createComment,
  createSignedInUser,
  createUser,
  createWriting,
  signedInVisitor,
} from "../../tests/support/factories.ts";
import { databaseKinds } from "../../tests/support/database.ts";
import { events, reactions, subjectCounts, writings } from "../../server/db/schema/index.ts";
import { onInvalidate } from "../../server/lib/invalidation.ts";
import { receivedLikes } from "./service.ts";

describe.each(databaseKinds)("reactions API on %s", (kind) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi(kind);
  });
  afterAll(() => api.close());
  const db = () => api.database.db;

  const react = (visitor: Visitor, type: string, id: number, reaction: string) =>
    visitor.request("PUT", `/api/subjects/${type}/${id}/reaction/`, { json: { reaction } });
  const unreact = (visitor: Visitor, type: string, id: number) => visitor.request("DELETE", `/api/subjects/${type}/${id}/reaction/`);
  const reactionEvents = (type: string, id: number) =>
    db()
      .select({ verb: events.verb, actorId: events.actorId, recipientIds: events.recipientIds, data: events.data })
      .from(events)
      .where(and(eq(events.subjectType, type), eq(events.subjectId, id)));

  it("likes, switches to dislike, takes it back: like and dislike exclude each other, counts follow, events name the author for likes only", async () => {
    const { user: author, visitor: authorVisitor } = await createSignedInUser(api.app, db());
    const { user: reader, visitor } = await createSignedInUser(api.app, db());
    const writing = await createWriting(db(), author, { title: "点赞测试" });

    const tags: string[] = [];
    const stop = onInvalidate((invalidated) => tags.push(...invalidated));
    const liked = await react(visitor, "writing", writing.id, "like");
    stop();
    expect(liked.statusCode, liked.body).toBe(200);
    expect(liked.json()).toEqual({ reaction: "like", like_count: 1 });
    // Counts change, what the writing says does not (its remembered content stays).
    expect(tags).toContain(`writing:${writing.id}:counts`);
    expect(tags).not.toContain(`writing:${writing.id}`);

    const disliked = await react(visitor, "writing", writing.id, "dislike");
    expect(disliked.json()).toEqual({ reaction: "dislike", like_count: 0 });
    // The author alone sees the dislike count.
    const byAuthor = await react(authorVisitor, "writing", writing.id, "like");
    expect(byAuthor.json()).toEqual({ reaction: "like", like_count: 1, dislike_count: 1 });

    const removed = await unreact(visitor, "writing", writing.id);
    expect(removed.json()).toEqual({ reaction: null, like_count: 1 });
    const again = await unreact(visitor, "writing", writing.id);
    expect(again.json()).toEqual({ reaction: null, like_count: 1 });

    const recorded = await reactionEvents("writing", writing.id);
    expect(recorded.map((event) => event.verb)).toEqual(["reaction.added", "reaction.changed", "reaction.added", "reaction.removed"]);
    expect(recorded[0]).toMatchObject({ actorId: reader.id, recipientIds: [author.id], data: { reaction: "like" } });
    // A dislike is never told to anyone, and nobody is told of their own like.
    expect(recorded[1]).toMatchObject({ recipientIds: [], data: { from: "like", to: "dislike" } });
    expect(recorded[2]).toMatchObject({ actorId: author.id, recipientIds: [] });
  });

  it("keeps counts exact under concurrency: 20 PUTs by one user make one like, 20 users make 20", async () => {
    const author = await createUser(db());
    const writing = await createWriting(db(), author);
    const { visitor } = await createSignedInUser(api.app, db());
    await visitor.csrfToken();
    const same = await Promise.all(Array.from({ length: 20 }, () => react(visitor, "writing", writing.id, "like")));
    expect(same.map((response) => response.statusCode)).toEqual(Array(20).fill(200));
    const many = await Promise.all(
      Array.from({ length: 20 }, async () => {
        const other = await signedInVisitor(api.app, db(), await createUser(db()));
        await other.csrfToken();
        return other;
      }),
    );
    const answers = await Promise.all(many.map((other) => react(other, "writing", writing.id, "like")));
    expect(answers.map((response) => response.statusCode)).toEqual(Array(20).fill(200));
    const [counts] = await db()
      .select()
      .from(subjectCounts)
      .where(and(eq(subjectCounts.subjectType, "writing"), eq(subjectCounts.subjectId, writing.id)));
    expect(counts).toMatchObject({ likeCount: 21, dislikeCount: 0, authorId: author.id });
    const rows = await db().select().from(reactions).where(eq(reactions.subjectId, writing.id));
    expect(rows.filter((row) => row.subjectType === "writing")).toHaveLength(21);
    // Mixed likes and dislikes at once by one user end in one row and counts that agree with it.
    const mixed = await Promise.all(
      Array.from({ length: 10 }, (_, index) => react(visitor, "writing", writing.id, index % 2 ? "like" : "dislike")),
    );
    expect(mixed.every((response) => response.statusCode === 200)).toBe(true);
    const [after] = await db()
      .select()
      .from(subjectCounts)
      .where(and(eq(subjectCounts.subjectType, "writing"), eq(subjectCounts.subjectId, writing.id)));
    expect(after!.likeCount + after!.dislikeCount).toBe(21);
    expect(await receivedLikes(db(), author.id)).toBe(after!.likeCount);
  });

  it("works on comments and users too, and answers 404 for unknown kinds, unknown ids and what the viewer may not read", async () => {
    const author = await createUser(db());
    const writing = await createWriting(db(), author);
    const comment = await createComment(db(), writing.id, author, { body: "赞这条评论" });
    const { visitor } = await createSignedInUser(api.app, db());
    expect((await react(visitor, "comment", comment.id, "like")).json()).toEqual({ reaction: "like", like_count: 1 });
    expect((await react(visitor, "user", author.id, "like")).json()).toEqual({ reaction: "like", like_count: 1 });
    expect(await receivedLikes(db(), author.id)).toBe(2);
    // The profile shows received likes and the reads of the author's writings (spec §3).
    await db().update(writings).set({ views: 7 }).where(eq(writings.id, writing.id));
    const profile = (await new Visitor(api.app).get(`/api/Users/profile/${author.username}/`)).json() as Record<string, unknown>;
    expect(profile).toMatchObject({ likes_count: 2, reads_count: 7 });

    expect((await react(visitor, "spaceship", 1, "like")).statusCode).toBe(404);
    expect((await react(visitor, "writing", 999_999, "like")).statusCode).toBe(404);
    const hidden = await createCircle(db(), { visibility: "members" });
    const secret = await createWriting(db(), author, { circleId: hidden.id });
    const refused = await react(visitor, "writing", secret.id, "like");
    expect(refused.statusCode).toBe(404);
    expect(refused.json()).toMatchObject({ code: "not_found" });
  });

  it("asks visitors to sign in, refuses other reactions and bodies, and never answers 500", async () => {
    const writing = await createWriting(db(), await createUser(db()));
    const visitor = new Visitor(api.app);
    expect((await react(visitor, "writing", writing.id, "like")).statusCode).toBe(401);
    const { visitor: reader } = await createSignedInUser(api.app, db());
    expect((await react(reader, "writing", writing.id, "love")).statusCode).toBe(400);
    expect((await reader.request("PUT", `/api/subjects/writing/${writing.id}/reaction/`, { json: null })).statusCode).toBe(400);
    expect((await react(reader, "writing", 0, "like")).statusCode).toBe(400);
  });

  it("moves a writing's Hot score: a like and a favourite raise it, a dislike lowers it below an untouched one", async () => {
    const author = await createUser(db());
    const writing = await createWriting(db(), author);
    const twin = await createWriting(db(), author);
    const score = async (id: number) =>
      (await db().select({ score: writings.hotScore }).from(writings).where(eq(writings.id, id)))[0]!.score;
    const { visitor } = await createSignedInUser(api.app, db());
    const before = await score(writing.id);
    await react(visitor, "writing", writing.id, "like");
    const liked = await score(writing.id);
    expect(liked).toBeGreaterThan(before);
    await visitor.request("PUT", `/api/subjects/writing/${writing.id}/favorite/`, { json: {} });
    expect(await score(writing.id)).toBeGreaterThan(liked);
    await visitor.request("DELETE", `/api/subjects/writing/${writing.id}/favorite/`);
    await react(visitor, "writing", writing.id, "dislike");
    const twinScore = await score(twin.id);
    // Both have no views or comments; the disliked one scores at the floor, like the untouched one at its age.
    expect(await score(writing.id)).toBeLessThanOrEqual(twinScore * 1.0001);
    expect(await score(writing.id)).toBeLessThan(liked);
  });

  it("a deleted writing takes its reactions and counts with it", async () => {
    const { user: author, visitor: authorVisitor } = await createSignedInUser(api.app, db());
    const writing = await createWriting(db(), author);
    const { visitor } = await createSignedInUser(api.app, db());
    await react(visitor, "writing", writing.id, "like");
    const before = await receivedLikes(db(), author.id);
    expect(before).toBe(1);
    expect((await authorVisitor.request("DELETE", `/api/writings/${writing.id}/`)).statusCode).toBeLessThan(300);
    expect(
      await db()
        .select()
        .from(reactions)
        .where(and(eq(reactions.subjectType, "writing"), eq(reactions.subjectId, writing.id))),
    ).toEqual([]);
    expect(await receivedLikes(db(), author.id)).toBe(0);
  });
  it("content hidden by moderators leaves the author's received likes and its subject's comment count, and comes back when restored", async () => {
    const author = await createUser(db());
    const writing = await createWriting(db(), author);
    const { visitor: reader } = await createSignedInUser(api.app, db());
    const { visitor: reporter } = await createSignedInUser(api.app, db());
    const { visitor: moderator } = await createSignedInUser(api.app, db(), { siteRole: "moderator" });
    await react(reader, "writing", writing.id, "like");
    const posted = await reader.post(`/api/writings/${writing.id}/comments/`, { body: "这是一条广告评论" });
    expect(posted.statusCode).toBe(201);
    const commentCount = async () =>
      (
        await db()
          .select({ count: subjectCounts.commentCount })
          .from(subjectCounts)
          .where(and(eq(subjectCounts.subjectType, "writing"), eq(subjectCounts.subjectId, writing.id)))
      )[0]!.count;
    expect(await commentCount()).toBe(1);
    const decide = async (type: string, id: number, action: string) => {
      const filed = await reporter.post(`/api/subjects/${type}/${id}/reports/`, { reason: "spam", description: "" });
      expect(filed.statusCode, filed.body).toBe(201);
      const caseId = filed.json().case_id as number;
      expect((await moderator.post(`/api/moderation/cases/${caseId}/resolve/`, { action, note: "" })).statusCode).toBe(200);
      return caseId;
    };

    const commentCase = await decide("comment", posted.json().id, "hide");
    expect(await commentCount()).toBe(0);
    const writingCase = await decide("writing", writing.id, "hide");
    expect(await receivedLikes(db(), author.id)).toBe(0);

    expect((await moderator.post(`/api/moderation/cases/${writingCase}/resolve/`, { action: "restore", note: "" })).statusCode).toBe(200);
    expect(await receivedLikes(db(), author.id)).toBe(1);
    expect((await moderator.post(`/api/moderation/cases/${commentCase}/resolve/`, { action: "restore", note: "" })).statusCode).toBe(200);
    expect(await commentCount()).toBe(1);
    // Hidden, then deleted: taken off the count once.
    await moderator.post(`/api/moderation/cases/${commentCase}/resolve/`, { action: "hide", note: "" });
    await moderator.post(`/api/moderation/cases/${commentCase}/resolve/`, { action: "delete", note: "" });
    expect(await commentCount()).toBe(0);
  });
});
