import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { createTestApi, Visitor, type TestApi } from "../../tests/support/api.ts";
import {
  addMember,
  createBook,
  createCircle,
  createEntry,
  createFollow,
  createSignedInUser,
  createUser,
  createWriting,
} from "../../tests/support/factories.ts";
import { databaseKinds } from "../../tests/support/database.ts";
import { events, subjectCounts } from "../../server/db/schema/index.ts";
import { presentViewer } from "../accounts/viewer.ts";
import type { CommentPage, PresentedComment } from "./schema.ts";
import { listCommentsOnContentOf } from "./service.ts";

/**
 * Comments on every commentable kind (`/api/subjects/{type}/{id}/comments/`), their orders, likes
 * on comments, the ten-minute edit window on a controllable clock, `@username` mentions and their
 * events, the completion API, and the creator's list of comments on their content.
 */
describe.each(databaseKinds)("comments everywhere on %s", (kind) => {
  let api: TestApi;
  /** The services' clock: real time plus this many milliseconds. */
  let offset = 0;
  beforeAll(async () => {
    api = await createTestApi(kind, { now: () => new Date(Date.now() + offset) });
  });
  afterAll(() => api.close());

  const db = () => api.database.db;
  const signedIn = () => createSignedInUser(api.app, db());
  const post = async (visitor: Visitor, type: string, id: number, body: Record<string, unknown>) => {
    const response = await visitor.post(`/api/subjects/${type}/${id}/comments/`, body);
    expect(response.statusCode, response.body).toBe(201);
    return response.json() as PresentedComment;
  };
  const list = async (visitor: Visitor, type: string, id: number, query = "") => {
    const response = await visitor.get(`/api/subjects/${type}/${id}/comments/${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as CommentPage;
  };
  const eventsOf = (verb: string, commentId: number) =>
    db()
      .select()
      .from(events)
      .where(and(eq(events.verb, verb), eq(events.subjectType, "comment"), eq(events.subjectId, commentId)));
  const commentCount = async (type: string, id: number) => {
    const [row] = await db()
      .select({ count: subjectCounts.commentCount, authorId: subjectCounts.authorId })
      .from(subjectCounts)
      .where(and(eq(subjectCounts.subjectType, type), eq(subjectCounts.subjectId, id)));
    return row;
  };

  it("takes comments on books, chapters and entries like writings, counts them per subject and tells the subject's author", async () => {
    const { user: author } = await signedIn();
    const { user: reader, visitor } = await signedIn();
    const book = await createBook(db(), author, { chapters: ["第一章"] });
    const chapter = book.chapters[0]!;
    const entry = await createEntry(db(), 1, author);
    const writing = await createWriting(db(), author, { title: "文章", content: "正文\n" });
    for (const [type, id] of [
      ["book", book.id],
      ["chapter", chapter.id],
      ["entry", entry.id],
      ["writing", writing.id],
    ] as const) {
      const created = await post(visitor, type, id, { body: `评论${type}` });
      expect(created).toMatchObject({
        body: `评论${type}`,
        author: { id: reader.id },
        like_count: 0,
        reaction: null,
        edited_at: null,
        mentions: [],
        can: { delete: true, reply: true, edit: true },
      });
      const page = await list(new Visitor(api.app), type, id);
      expect(page).toMatchObject({ total: 1, items: [{ id: created.id, body: `评论${type}` }] });
      expect(await commentCount(type, id)).toEqual({ count: 1, authorId: author.id });
      const [created_event] = await eventsOf("comment.created", created.id);
      expect(created_event).toMatchObject({
        actorId: reader.id,
        recipientIds: [author.id],
        data: { subjectType: type, subjectId: id, parentId: null },
      });
    }
    // The writing's old path is the same operation.
    const alias = await visitor.get(`/api/writings/${writing.id}/comments/`);
    expect(alias.json()).toEqual(await list(visitor, "writing", writing.id));
    // Deleting lowers the count.
    const [bookComment] = (await list(visitor, "book", book.id)).items;
    expect((await visitor.request("DELETE", `/api/comments/${bookComment!.id}/`)).statusCode).toBe(204);
    expect(await commentCount("book", book.id)).toMatchObject({ count: 0 });
    // Kinds that take no comments, and unknown kinds, are not found.
    for (const type of ["user", "circle", "comment", "nothing"]) {
      expect((await visitor.get(`/api/subjects/${type}/1/comments/`)).statusCode).toBe(404);
      expect((await visitor.post(`/api/subjects/${type}/1/comments/`, { body: "好" })).statusCode).toBe(404);
    }
    expect((await visitor.get(`/api/subjects/book/999999/comments/`)).statusCode).toBe(404);
  });

  it("answers not_found for the comments of a book, chapter or entry the viewer may not read", async () => {
    const { user: author, visitor: authorVisitor } = await signedIn();
    const hidden = await createCircle(db(), { visibility: "members" });
    await addMember(db(), hidden.id, author.id, "founder");
    const book = await createBook(db(), author, { circleId: hidden.id, chapters: ["秘章"] });
    const entry = await createEntry(db(), hidden.id, author);
    const { visitor: stranger } = await signedIn();
    for (const [type, id] of [
      ["book", book.id],
      ["chapter", book.chapters[0]!.id],
      ["entry", entry.id],
    ] as const) {
      await post(authorVisitor, type, id, { body: "圈内" });
      expect((await stranger.get(`/api/subjects/${type}/${id}/comments/`)).statusCode).toBe(404);
      expect((await stranger.post(`/api/subjects/${type}/${id}/comments/`, { body: "你好" })).statusCode).toBe(404);
    }
  });

  it("sorts newest, oldest and most liked, pages in each order, and counts likes on comments (dislikes for the comment's author only)", async () => {
    const { user: author } = await signedIn();
    const book = await createBook(db(), author);
    const people = await Promise.all([signedIn(), signedIn(), signedIn()]);
    const [first, second, third] = [
      await post(people[0]!.visitor, "book", book.id, { body: "一" }),
      await post(people[1]!.visitor, "book", book.id, { body: "二" }),
      await post(people[2]!.visitor, "book", book.id, { body: "三" }),
    ];
    // Two likes on the second, one on the first, a dislike on the third.
    const react = async (visitor: Visitor, id: number, reaction: "like" | "dislike") => {
      const response = await visitor.request("PUT", `/api/subjects/comment/${id}/reaction/`, { json: { reaction } });
      expect(response.statusCode, response.body).toBe(200);
    };
    await react(people[0]!.visitor, second!.id, "like");
    await react(people[2]!.visitor, second!.id, "like");
    await react(people[1]!.visitor, first!.id, "like");
    await react(people[0]!.visitor, third!.id, "dislike");

    const ids = (page: CommentPage) => page.items.map((item) => item.id);
    expect(ids(await list(people[0]!.visitor, "book", book.id))).toEqual([third!.id, second!.id, first!.id]);
    expect(ids(await list(people[0]!.visitor, "book", book.id, "?sort=newest"))).toEqual([third!.id, second!.id, first!.id]);
    expect(ids(await list(people[0]!.visitor, "book", book.id, "?sort=oldest"))).toEqual([first!.id, second!.id, third!.id]);
    const liked = await list(people[0]!.visitor, "book", book.id, "?sort=liked");
    expect(ids(liked)).toEqual([second!.id, first!.id, third!.id]);
    expect(liked.items.map((item) => item.like_count)).toEqual([2, 1, 0]);
    // The viewer's own reactions; the dislike count only for the comment's author.
    expect(liked.items.map((item) => item.reaction)).toEqual(["like", null, "dislike"]);
    // people[0] wrote the first comment: only there do they see its dislike count.
    expect(liked.items.map((item) => item.dislike_count)).toEqual([undefined, 0, undefined]);
    const thirdForItsAuthor = (await list(people[2]!.visitor, "book", book.id, "?sort=liked")).items[2]!;
    expect(thirdForItsAuthor).toMatchObject({ id: third!.id, dislike_count: 1, like_count: 0 });
    // An unknown order is the default.
    expect(ids(await list(people[0]!.visitor, "book", book.id, "?sort=random"))).toEqual([third!.id, second!.id, first!.id]);

    // Paging in each order: eleven more comments make a second page that continues the order.
    const writer = await signedIn();
    for (let index = 0; index < 5; index += 1) await post(writer.visitor, "book", book.id, { body: `更多 ${index}` });
    const other = await signedIn();
    for (let index = 0; index < 6; index += 1) await post(other.visitor, "book", book.id, { body: `其他 ${index}` });
    for (const sort of ["newest", "oldest", "liked"]) {
      const page1 = await list(people[0]!.visitor, "book", book.id, `?sort=${sort}`);
      expect(page1.items).toHaveLength(10);
      const page2 = await list(people[0]!.visitor, "book", book.id, `?sort=${sort}&cursor=${page1.next_cursor}`);
      expect(page2.next_cursor).toBeNull();
      const all = [...ids(page1), ...ids(page2)];
      expect(new Set(all).size).toBe(14);
      if (sort === "liked") expect(all.slice(0, 2)).toEqual([second!.id, first!.id]);
      if (sort === "oldest") expect(all[0]).toBe(first!.id);
      if (sort === "newest") expect(all.at(-1)).toBe(first!.id);
    }
  });

  it("lets the author edit within ten minutes (shown as edited), nobody else, and refuses afterwards with a localized code", async () => {
    const { user: author } = await signedIn();
    const entry = await createEntry(db(), 1, author);
    const { visitor: commenter } = await signedIn();
    const { visitor: other } = await signedIn();
    const created = await post(commenter, "entry", entry.id, { body: "原文" });
    try {
      offset = 5 * 60_000;
      const edited = await commenter.request("PATCH", `/api/comments/${created.id}/`, { json: { body: "  改过  " } });
      expect(edited.statusCode, edited.body).toBe(200);
      expect(edited.json()).toMatchObject({ id: created.id, body: "改过", edited_at: expect.any(String), can: { edit: true } });
      const listed = (await list(commenter, "entry", entry.id)).items[0]!;
      expect(listed).toMatchObject({ id: created.id, body: "改过", can: { edit: true } });
      expect(new Date(listed.edited_at!).getTime()).toBeGreaterThan(new Date(listed.created_at).getTime());
      expect((await eventsOf("comment.edited", created.id)).length).toBe(1);
      // Someone else, even the entry's creator, may not edit it.
      expect((await other.request("PATCH", `/api/comments/${created.id}/`, { json: { body: "篡改" } })).statusCode).toBe(403);
      // Empty text is a field message.
      const empty = await commenter.request("PATCH", `/api/comments/${created.id}/`, {
        json: { body: " " },
        headers: { "accept-language": "en" },
      });
      expect(empty.statusCode).toBe(400);
      expect(empty.json().fields).toEqual({ body: "Please enter your comment." });

      offset = 10 * 60_000 + 1_000;
      expect((await list(commenter, "entry", entry.id)).items[0]!.can.edit).toBe(false);
      const late = await commenter.request("PATCH", `/api/comments/${created.id}/`, {
        json: { body: "太晚" },
        headers: { "accept-language": "en" },
      });
      expect(late.statusCode).toBe(403);
      expect(late.json()).toMatchObject({
        code: "comment_edit_expired",
        message: "A comment can only be edited within 10 minutes of posting.",
      });
      const lateZh = await commenter.request("PATCH", `/api/comments/${created.id}/`, {
        json: { body: "太晚" },
        headers: { "accept-language": "zh-CN" },
      });
      expect(lateZh.json()).toMatchObject({ code: "comment_edit_expired", message: "评论发布 10 分钟后不能再编辑。" });
      expect((await list(commenter, "entry", entry.id)).items[0]!.body).toBe("改过");
      expect((await commenter.request("PATCH", `/api/comments/999999/`, { json: { body: "无" } })).statusCode).toBe(404);
      expect((await new Visitor(api.app).request("PATCH", `/api/comments/${created.id}/`, { json: { body: "访客" } })).statusCode).toBe(
        401,
      );
    } finally {
      offset = 0;
    }
  });

  it("links @mentions and tells the mentioned users who may read the subject, never the actor; an edit tells only the newly mentioned", async () => {
    const { user: author, visitor: authorVisitor } = await signedIn();
    const bob = await createUser(db());
    const carol = await createUser(db());
    const dave = await createUser(db());
    const hidden = await createCircle(db(), { visibility: "members" });
    await addMember(db(), hidden.id, author.id, "founder");
    await addMember(db(), hidden.id, bob.id, "member");
    await addMember(db(), hidden.id, dave.id, "member");
    const book = await createBook(db(), author, { circleId: hidden.id, chapters: ["第一章"] });
    const chapterId = book.chapters[0]!.id;
    const created = await post(authorVisitor, "chapter", chapterId, {
      body: `你好 @${bob.username.toUpperCase()} 和 @${carol.username}，还有 @${author.username} 与 @no_such_user_x；邮件 a@${bob.username}`,
    });
    // Mentioned existing users are linked (carol too: a name is no secret), the unknown name is not.
    expect(created.mentions.map((user) => user.username).sort()).toEqual([author.username, bob.username, carol.username].sort());
    const [mentioned] = await eventsOf("comment.mentioned", created.id);
    // carol may not read the hidden circle's chapter; the author is the actor.
    expect(mentioned).toMatchObject({
      actorId: author.id,
      recipientIds: [bob.id],
      data: { subjectType: "chapter", subjectId: chapterId, parentId: null },
    });
    expect((await list(authorVisitor, "chapter", chapterId)).items[0]!.mentions).toHaveLength(3);

    const edited = await authorVisitor.request("PATCH", `/api/comments/${created.id}/`, {
      json: { body: `@${bob.username} @${dave.username}` },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    const told = await eventsOf("comment.mentioned", created.id);
    expect(told).toHaveLength(2);
    expect(told.map((event) => event.recipientIds)).toContainEqual([dave.id]);
    expect((edited.json() as PresentedComment).mentions.map((user) => user.username).sort()).toEqual([bob.username, dave.username].sort());
  });

  it("tells a reply's replied user and its thread's author, never the subject's author or oneself", async () => {
    const { user: author } = await signedIn();
    const book = await createBook(db(), author);
    const alice = await signedIn();
    const bob = await signedIn();
    const carol = await signedIn();
    const top = await post(alice.visitor, "book", book.id, { body: "顶层" });
    const reply = await post(bob.visitor, "book", book.id, { body: "回复", parent_id: top.id });
    expect((await eventsOf("comment.created", reply.id))[0]!.recipientIds).toEqual([alice.user.id]);
    const nested = await post(carol.visitor, "book", book.id, { body: "回复回复", parent_id: reply.id });
    expect([...(await eventsOf("comment.created", nested.id))[0]!.recipientIds!].sort()).toEqual([alice.user.id, bob.user.id].sort());
    const own = await post(alice.visitor, "book", book.id, { body: "自己回复", parent_id: nested.id });
    expect((await eventsOf("comment.created", own.id))[0]!.recipientIds).toEqual([carol.user.id]);
    expect(await commentCount("book", book.id)).toMatchObject({ count: 4 });
  });

  it("completes @names for the signed in: prefix of username or nickname, people followed first, never oneself", async () => {
    const { user: me, visitor } = await signedIn();
    const stem = `zq${Date.now().toString(36).slice(-5)}`;
    const plain = await createUser(db(), { username: `${stem}b`, nickname: "普通" });
    const followed = await createUser(db(), { username: `${stem}c`, nickname: "关注的人" });
    const byNickname = await createUser(db(), { nickname: `${stem}昵称` });
    await createFollow(db(), me, followed);
    const answer = await visitor.get(`/api/Users/mentions/?q=${stem.toUpperCase()}`);
    expect(answer.statusCode, answer.body).toBe(200);
    const names = (answer.json() as { items: { username: string }[] }).items.map((item) => item.username);
    expect(names[0]).toBe(followed.username);
    expect(names).toEqual(expect.arrayContaining([plain.username, byNickname.username]));
    expect(names).not.toContain(me.username);
    // `%` and `_` are letters here, not patterns.
    expect((await visitor.get(`/api/Users/mentions/?q=%25`)).json()).toEqual({ items: [] });
    // Nothing typed yet: the people followed.
    expect(((await visitor.get(`/api/Users/mentions/?q=`)).json() as { items: { id: number }[] }).items.map((item) => item.id)).toEqual([
      followed.id,
    ]);
    expect((await new Visitor(api.app).get(`/api/Users/mentions/?q=${stem}`)).statusCode).toBe(401);
  });

  it("lists the comments on a user's content of every kind, newest first with a cursor, for the creator's desk", async () => {
    const { user: owner, visitor: ownerVisitor } = await signedIn();
    const ownerViewer = presentViewer(owner);
    const book = await createBook(db(), owner, { chapters: ["一"] });
    const writing = await createWriting(db(), owner, { title: "作品", content: "正文\n" });
    const reader = await signedIn();
    const onBook = await post(reader.visitor, "book", book.id, { body: "书评" });
    const onChapter = await post(reader.visitor, "chapter", book.chapters[0]!.id, { body: "章评" });
    const onWriting = await post(reader.visitor, "writing", writing.id, { body: "文评" });
    // The owner's own comment is left out unless asked for.
    await post(ownerVisitor, "book", book.id, { body: "作者自己" });
    // Elsewhere: not the owner's content.
    const elsewhere = await createBook(db(), reader.user);
    await post(reader.visitor, "book", elsewhere.id, { body: "别处" });

    const firstPage = await listCommentsOnContentOf(db(), ownerViewer, { limit: 2 });
    expect(firstPage.items.map((item) => item.id)).toEqual([onWriting.id, onChapter.id]);
    expect(firstPage.items[0]).toMatchObject({
      body: "文评",
      parent_id: null,
      subject: { type: "writing", id: writing.id, title: "作品" },
      can: { delete: true, reply: true, edit: false },
    });
    expect(firstPage.items[1]!.subject).toMatchObject({ type: "chapter", title: "一" });
    const secondPage = await listCommentsOnContentOf(db(), ownerViewer, { limit: 2, cursor: firstPage.next_cursor });
    expect(secondPage).toMatchObject({ items: [{ id: onBook.id, subject: { type: "book", id: book.id } }], next_cursor: null });
    const withOwn = await listCommentsOnContentOf(db(), ownerViewer, { includeOwn: true });
    expect(withOwn.items).toHaveLength(4);
    expect(withOwn.items[0]!.author?.id).toBe(owner.id);
  });
});
