import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { createTestApi, Visitor, type TestApi } from "../../tests/support/api.ts";
import { addMember, createCircle, createComment, createSignedInUser, createWriting } from "../../tests/support/factories.ts";
import { databaseKinds } from "../../tests/support/database.ts";
import { comments, events } from "../../server/db/schema/index.ts";
import { getUnreadCounts } from "../messages/service.ts";
import { onInvalidate } from "../../server/lib/invalidation.ts";
import type { CommentPage, PresentedComment, ReplyPage } from "./schema.ts";

const article = { title: "评论测试", content: "正文。\n" };

describe.each(databaseKinds)("comments API on %s", (kind) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi(kind);
  });
  afterAll(() => api.close());

  const db = () => api.database.db;
  /** Who each signed-in visitor is, so `publish` can make their writing directly. */
  const userOf = new WeakMap<Visitor, { id: number }>();
  const signedIn = async () => {
    const made = await createSignedInUser(api.app, db());
    userOf.set(made.visitor, made.user);
    return made;
  };
  /** A writing by the visitor's user, made directly (publishing itself is tested in features/writings). */
  const publish = async (visitor: Visitor, circleId = 1) => (await createWriting(db(), userOf.get(visitor)!, { circleId, ...article })).id;
  const comment = async (visitor: Visitor, writingId: number, body: Record<string, unknown>, headers?: Record<string, string>) =>
    visitor.post(`/api/writings/${writingId}/comments/`, body, headers);
  const posted = async (visitor: Visitor, writingId: number, body: Record<string, unknown>) => {
    const response = await comment(visitor, writingId, body);
    expect(response.statusCode, response.body).toBe(201);
    return response.json() as PresentedComment;
  };
  const list = async (visitor: Visitor, writingId: number, cursor?: number) => {
    const response = await visitor.get(`/api/writings/${writingId}/comments/${cursor ? `?cursor=${cursor}` : ""}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as CommentPage;
  };
  const unread = async (userId: number) => {
    const counts = await getUnreadCounts(db(), userId);
    return { comments: counts.unread_comment_count, replies: counts.unread_replies };
  };
  const eventsOf = (verb: string, id: number) =>
    db()
      .select()
      .from(events)
      .where(and(eq(events.verb, verb), eq(events.subjectType, "comment"), eq(events.subjectId, id)));

  it("posts a comment: 201 with the comment, an event, the page's tag invalidated, the writing's author notified", async () => {
    const { user: author, visitor: writer } = await signedIn();
    const { user: reader, visitor } = await signedIn();
    const writingId = await publish(writer);
    const tags: string[] = [];
    const stop = onInvalidate((invalidated) => tags.push(...invalidated));
    const created = await posted(visitor, writingId, { body: "  写得好！\r\n见 https://example.com/a?b=1。  " });
    stop();
    expect(created).toMatchObject({
      body: "写得好！\n见 https://example.com/a?b=1。",
      author: { id: reader.id, username: reader.username, nickname: reader.nickname },
      deleted: false,
      reply_to: null,
      can: { delete: true, reply: true, edit: true },
    });
    expect(new Date(created.created_at).getTime()).toBeGreaterThan(Date.now() - 60_000);
    // The thread and the counts change; what the writing says does not (its remembered content stays).
    expect(tags).toEqual(expect.arrayContaining([`writing:${writingId}:comments`, `writing:${writingId}:counts`]));
    expect(tags).not.toContain(`writing:${writingId}`);
    expect(await eventsOf("comment.created", created.id)).toEqual([
      expect.objectContaining({
        actorId: reader.id,
        data: expect.objectContaining({ subjectType: "writing", subjectId: writingId, parentId: null }),
      }),
    ]);
    expect(await unread(author.id)).toEqual({ comments: 1, replies: 0 });
    const page = await list(new Visitor(api.app), writingId);
    expect(page).toMatchObject({
      total: 1,
      next_cursor: null,
      items: [{ id: created.id, body: created.body, replies: [], reply_count: 0, can: { delete: false, reply: false, edit: false } }],
    });
    // Commenting on one's own writing notifies nobody.
    await posted(writer, writingId, { body: "作者自己的评论" });
    expect(await unread(author.id)).toEqual({ comments: 1, replies: 0 });
    // The author may delete a reader's comment on their writing.
    expect((await list(writer, writingId)).items.find((item) => item.id === created.id)?.can).toEqual({
      delete: true,
      reply: true,
      edit: false,
    });
  });

  it("refuses an empty or whitespace-only comment and one over 1,000 characters with field messages in both languages; counts characters, not bytes", async () => {
    const { visitor: writer } = await signedIn();
    const { visitor } = await signedIn();
    const writingId = await publish(writer);
    for (const body of ["", "   \n\t  ", undefined]) {
      const en = await comment(visitor, writingId, body === undefined ? {} : { body }, { "accept-language": "en" });
      expect(en.statusCode).toBe(400);
      expect(en.json()).toMatchObject({ code: "validation_failed", fields: { body: "Please enter your comment." } });
    }
    const zh = await comment(visitor, writingId, { body: " " }, { "accept-language": "zh-CN" });
    expect(zh.json().fields).toEqual({ body: "请输入评论内容。" });
    const tooLong = await comment(visitor, writingId, { body: "字".repeat(1001) }, { "accept-language": "en" });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().fields).toEqual({ body: "A comment can be at most 1,000 characters." });
    expect((await comment(visitor, writingId, { body: "字".repeat(1001) }, { "accept-language": "zh-CN" })).json().fields).toEqual({
      body: "评论最多 1000 字。",
    });
    // 1,000 characters of which some take two UTF-16 units (and four UTF-8 bytes) each.
    const full = await posted(visitor, writingId, { body: "𝑥".repeat(500) + "字".repeat(500) });
    expect([...full.body]).toHaveLength(1000);
    expect((await comment(visitor, writingId, { body: "a\u0007b" })).statusCode).toBe(400);
    expect((await comment(visitor, writingId, { body: 5 })).statusCode).toBe(400);
    expect((await comment(visitor, writingId, { body: "好", parent_id: "x" })).statusCode).toBe(400);
  });

  it("asks visitors to sign in to comment, lets them read; a writing the viewer may not read is 404 for its comments too", async () => {
    const { visitor: writer, user: writerUser } = await signedIn();
    const writingId = await publish(writer);
    const visitor = new Visitor(api.app);
    const refused = await comment(visitor, writingId, { body: "你好" }, { "accept-language": "en" });
    expect(refused.statusCode).toBe(401);
    expect((await visitor.get(`/api/writings/${writingId}/comments/`)).statusCode).toBe(200);
    expect((await visitor.get(`/api/writings/999999/comments/`)).statusCode).toBe(404);
    expect((await comment(writer, 999999, { body: "你好" })).statusCode).toBe(404);

    const hidden = await createCircle(db(), { visibility: "members" });
    await addMember(db(), hidden.id, writerUser.id, "founder");
    const secretId = await publish(writer, hidden.id);
    const top = await posted(writer, secretId, { body: "圈内评论" });
    const { visitor: stranger } = await signedIn();
    expect((await stranger.get(`/api/writings/${secretId}/comments/`)).statusCode).toBe(404);
    expect((await comment(stranger, secretId, { body: "你好" })).statusCode).toBe(404);
    expect((await stranger.get(`/api/comments/${top.id}/replies/`)).statusCode).toBe(404);
    expect((await stranger.request("DELETE", `/api/comments/${top.id}/`)).statusCode).toBe(404);
    expect((await visitor.get(`/api/writings/${secretId}/comments/`)).statusCode).toBe(404);
  });

  it("attaches a reply to a reply to the top-level comment, mentions the replied user and notifies them, never oneself", async () => {
    const { user: author, visitor: writer } = await signedIn();
    const { user: alice, visitor: aliceVisitor } = await signedIn();
    const { user: bob, visitor: bobVisitor } = await signedIn();
    const writingId = await publish(writer);
    const top = await posted(aliceVisitor, writingId, { body: "顶层评论" });
    const first = await posted(bobVisitor, writingId, { body: "回复顶层", parent_id: top.id });
    expect(first.reply_to).toEqual({ username: alice.username, nickname: alice.nickname });
    expect(await unread(alice.id)).toEqual({ comments: 0, replies: 1 });
    const second = await posted(aliceVisitor, writingId, { body: "回复回复", parent_id: first.id });
    expect(second.reply_to).toEqual({ username: bob.username, nickname: bob.nickname });
    expect(await unread(bob.id)).toEqual({ comments: 0, replies: 1 });
    // Replying to oneself notifies nobody; the writing's author is notified of top-level comments only.
    await posted(aliceVisitor, writingId, { body: "自言自语", parent_id: second.id });
    expect(await unread(alice.id)).toEqual({ comments: 0, replies: 1 });
    expect(await unread(author.id)).toEqual({ comments: 1, replies: 0 });

    const [stored] = await db().select().from(comments).where(eq(comments.id, second.id));
    expect(stored).toMatchObject({ parentId: top.id, replyToUserId: bob.id });
    const page = await list(writer, writingId);
    expect(page.total).toBe(4);
    expect(page.items).toHaveLength(1);
    expect(page.items[0]).toMatchObject({ id: top.id, reply_count: 3, reply_to: null });
    expect(page.items[0]!.replies.map((reply) => [reply.id, reply.reply_to?.username])).toEqual([
      [first.id, alice.username],
      [second.id, bob.username],
      [expect.any(Number), alice.username],
    ]);
    const created = await eventsOf("comment.created", second.id);
    expect(created[0]!.data).toMatchObject({ parentId: top.id, replyToUserId: bob.id });

    // A parent on another writing, or an unknown one, is refused; so is replying to a deleted comment.
    const otherId = await publish(writer);
    const elsewhere = await comment(bobVisitor, otherId, { body: "错位", parent_id: top.id }, { "accept-language": "en" });
    expect(elsewhere.statusCode).toBe(400);
    expect(elsewhere.json().fields).toEqual({ parent_id: "The comment you are replying to does not exist." });
    expect((await comment(bobVisitor, writingId, { body: "无", parent_id: 2_000_000_000 })).statusCode).toBe(400);
    expect((await aliceVisitor.request("DELETE", `/api/comments/${top.id}/`)).statusCode).toBe(204);
    const toDeleted = await comment(bobVisitor, writingId, { body: "晚了", parent_id: top.id }, { "accept-language": "en" });
    expect(toDeleted.statusCode).toBe(400);
    expect(toDeleted.json().fields).toEqual({ parent_id: "The comment you are replying to was deleted." });
  });

  it("lets the comment's author, the writing's author and the circle's moderators delete; others get 403, visitors 401; final, with an event", async () => {
    const { user: author, visitor: writer } = await signedIn();
    const { user: reader, visitor: readerVisitor } = await signedIn();
    const { user: master, visitor: masterVisitor } = await signedIn();
    const { visitor: stranger } = await signedIn();
    const circle = await createCircle(db());
    await addMember(db(), circle.id, author.id, "founder");
    await addMember(db(), circle.id, master.id, "master");
    const writingId = await publish(writer, circle.id);
    const byReader = [
      await posted(readerVisitor, writingId, { body: "一" }),
      await posted(readerVisitor, writingId, { body: "二" }),
      await posted(readerVisitor, writingId, { body: "三" }),
    ];
    expect((await list(stranger, writingId)).items.every((item) => !item.can.delete && item.can.reply)).toBe(true);
    expect((await list(masterVisitor, writingId)).items.every((item) => item.can.delete)).toBe(true);

    expect((await stranger.request("DELETE", `/api/comments/${byReader[0]!.id}/`)).statusCode).toBe(403);
    expect((await new Visitor(api.app).request("DELETE", `/api/comments/${byReader[0]!.id}/`)).statusCode).toBe(401);
    const tags: string[] = [];
    const stop = onInvalidate((invalidated) => tags.push(...invalidated));
    expect((await readerVisitor.request("DELETE", `/api/comments/${byReader[0]!.id}/`)).statusCode).toBe(204);
    stop();
    // The thread and the counts change; what the writing says does not (its remembered content stays).
    expect(tags).toEqual(expect.arrayContaining([`writing:${writingId}:comments`, `writing:${writingId}:counts`]));
    expect(tags).not.toContain(`writing:${writingId}`);
    expect((await writer.request("DELETE", `/api/comments/${byReader[1]!.id}/`)).statusCode).toBe(204);
    expect((await masterVisitor.request("DELETE", `/api/comments/${byReader[2]!.id}/`)).statusCode).toBe(204);
    expect((await readerVisitor.request("DELETE", `/api/comments/${byReader[2]!.id}/`)).statusCode).toBe(404);
    expect(await list(readerVisitor, writingId)).toEqual({ items: [], next_cursor: null, total: 0 });
    expect(await eventsOf("comment.deleted", byReader[1]!.id)).toEqual([
      expect.objectContaining({ actorId: author.id, data: expect.objectContaining({ authorId: reader.id, subjectId: writingId }) }),
    ]);
    expect(await eventsOf("comment.deleted", byReader[2]!.id)).toEqual([expect.objectContaining({ actorId: master.id })]);
  });

  it("shows a deleted comment that has replies as a placeholder above them; one without replies disappears", async () => {
    const { visitor: writer } = await signedIn();
    const { user: alice, visitor: aliceVisitor } = await signedIn();
    const { visitor: bobVisitor } = await signedIn();
    const writingId = await publish(writer);
    const lonely = await posted(aliceVisitor, writingId, { body: "没人回复" });
    const busy = await posted(aliceVisitor, writingId, { body: "有人回复" });
    const reply = await posted(bobVisitor, writingId, { body: "回复", parent_id: busy.id });
    expect((await aliceVisitor.request("DELETE", `/api/comments/${lonely.id}/`)).statusCode).toBe(204);
    expect((await aliceVisitor.request("DELETE", `/api/comments/${busy.id}/`)).statusCode).toBe(204);
    const page = await list(bobVisitor, writingId);
    expect(page.total).toBe(1);
    expect(page.items).toEqual([
      expect.objectContaining({
        id: busy.id,
        deleted: true,
        body: "",
        author: null,
        reply_count: 1,
        can: { delete: false, reply: false, edit: false },
        replies: [
          expect.objectContaining({ id: reply.id, body: "回复", reply_to: { username: alice.username, nickname: alice.nickname } }),
        ],
      }),
    ]);
    // Its text is gone from every answer, the replies' page too.
    expect(JSON.stringify(page)).not.toContain("有人回复");
    expect((await bobVisitor.get(`/api/comments/${busy.id}/replies/`)).json()).toMatchObject({ total: 1, items: [{ id: reply.id }] });
    // Once its last reply goes, the placeholder goes too.
    expect((await bobVisitor.request("DELETE", `/api/comments/${reply.id}/`)).statusCode).toBe(204);
    expect(await list(bobVisitor, writingId)).toEqual({ items: [], next_cursor: null, total: 0 });
  });

  it("pages top-level comments ten at a time, newest first, each with its first three replies; replies page oldest first", async () => {
    const { user: author, visitor: writer } = await signedIn();
    const { user: reader } = await signedIn();
    const writingId = await publish(writer);
    const base = Date.now() - 3_600_000;
    const tops = [];
    for (let index = 0; index < 12; index += 1)
      tops.push(await createComment(db(), writingId, reader, { body: `第 ${index} 条`, createdAt: new Date(base + index * 1000) }));
    const newest = tops.at(-1)!;
    const replies = [];
    for (let index = 0; index < 25; index += 1)
      replies.push(
        await createComment(db(), writingId, author, {
          parentId: newest.id,
          replyToUserId: reader.id,
          body: `回复 ${index}`,
          createdAt: new Date(base + 60_000 + index * 1000),
        }),
      );

    const first = await list(new Visitor(api.app), writingId);
    expect(first.total).toBe(37);
    expect(first.items.map((item) => item.id)).toEqual(
      tops
        .slice(2)
        .reverse()
        .map((row) => row.id),
    );
    expect(first.next_cursor).toBe(tops[2]!.id);
    expect(first.items[0]).toMatchObject({ reply_count: 25 });
    expect(first.items[0]!.replies.map((reply) => reply.id)).toEqual(replies.slice(0, 3).map((row) => row.id));
    const second = await list(new Visitor(api.app), writingId, first.next_cursor!);
    expect(second.items.map((item) => item.id)).toEqual([tops[1]!.id, tops[0]!.id]);
    expect(second.next_cursor).toBeNull();

    const repliesFirst = (await new Visitor(api.app).get(`/api/comments/${newest.id}/replies/`)).json() as ReplyPage;
    expect(repliesFirst.total).toBe(25);
    expect(repliesFirst.items.map((reply) => reply.id)).toEqual(replies.slice(0, 20).map((row) => row.id));
    expect(repliesFirst.next_cursor).toBe(replies[19]!.id);
    const repliesNext = (
      await new Visitor(api.app).get(`/api/comments/${newest.id}/replies/?cursor=${repliesFirst.next_cursor}`)
    ).json() as ReplyPage;
    expect(repliesNext.items.map((reply) => reply.id)).toEqual(replies.slice(20).map((row) => row.id));
    expect(repliesNext.next_cursor).toBeNull();
    // Replies have no replies page of their own; nonsense cursors are ignored.
    expect((await new Visitor(api.app).get(`/api/comments/${replies[0]!.id}/replies/`)).statusCode).toBe(404);
    expect((await new Visitor(api.app).get(`/api/writings/${writingId}/comments/?cursor=abc`)).statusCode).toBe(200);
  });

  it("limits how fast one user comments (localized 429), per user", async () => {
    const { visitor: writer } = await signedIn();
    const { visitor } = await signedIn();
    const writingId = await publish(writer);
    for (let index = 0; index < 6; index += 1) await posted(visitor, writingId, { body: `快 ${index}` });
    const refused = await comment(visitor, writingId, { body: "太快了" }, { "accept-language": "en" });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ code: "rate_limited", message: "Too many requests. Please try again later." });
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    expect((await comment(visitor, writingId, { body: "太快了" }, { "accept-language": "zh-CN" })).json().message).toBe(
      "请求过于频繁，请稍后再试。",
    );
    // Someone else may still comment.
    await posted(writer, writingId, { body: "作者不受影响" });
  });

  it("deletes a writing's comments with the writing", async () => {
    const { visitor: writer } = await signedIn();
    const { visitor } = await signedIn();
    const writingId = await publish(writer);
    const top = await posted(visitor, writingId, { body: "将被删除" });
    await posted(writer, writingId, { body: "回复", parent_id: top.id });
    expect((await writer.request("DELETE", `/api/writings/${writingId}/`)).statusCode).toBe(204);
    expect(
      await db()
        .select()
        .from(comments)
        .where(and(eq(comments.subjectType, "writing"), eq(comments.subjectId, writingId))),
    ).toEqual([]);
    expect((await visitor.get(`/api/comments/${top.id}/replies/`)).statusCode).toBe(404);
  });

  it("shows a new comment, a deletion and a commenter's new nickname at once, though the first page is remembered", async () => {
    const { visitor: writer } = await signedIn();
    const { visitor } = await signedIn();
    const writingId = await publish(writer);
    const reader = new Visitor(api.app);
    // Twice: the second read is the remembered one.
    expect((await list(reader, writingId)).total).toBe(0);
    expect((await list(reader, writingId)).total).toBe(0);
    const created = await posted(visitor, writingId, { body: "记住我" });
    expect((await list(reader, writingId)).items.map((item) => item.id)).toEqual([created.id]);
    expect((await list(reader, writingId)).items.map((item) => item.id)).toEqual([created.id]);
    expect((await visitor.request("PATCH", "/api/Users/profile/", { json: { nickname: "改名的评论者" } })).statusCode).toBe(200);
    expect((await list(reader, writingId)).items[0]!.author?.nickname).toBe("改名的评论者");
    expect((await visitor.request("DELETE", `/api/comments/${created.id}/`)).statusCode).toBe(204);
    expect((await list(reader, writingId)).total).toBe(0);
  });

  it("is described in the OpenAPI document and CSRF-protected", async () => {
    const doc = (await new Visitor(api.app).get("/api/docs/json")).json() as { paths: Record<string, Record<string, unknown>> };
    expect(Object.keys(doc.paths["/api/writings/{id}/comments/"] ?? {})).toEqual(expect.arrayContaining(["get", "post"]));
    expect(doc.paths["/api/comments/{id}/"]).toHaveProperty("delete");
    expect(doc.paths["/api/comments/{id}/replies/"]).toHaveProperty("get");
    const { visitor: writer } = await signedIn();
    const writingId = await publish(writer);
    const forged = await writer.request("POST", `/api/writings/${writingId}/comments/`, { json: { body: "伪造" }, csrf: false });
    expect(forged.statusCode).toBe(403);
  });
});
