import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { createTestApi, Visitor, type TestApi } from "../../tests/support/api.ts";
import {
  createBook,
  createComment,
  createEntry,
  createQuestion,
  createSignedInUser,
  createUser,
  createWriting,
} from "../../tests/support/factories.ts";
import { databaseKinds } from "../../tests/support/database.ts";
import { books, comments, follows, reactions, subjectViews, writings } from "../../server/db/schema/index.ts";
import { shanghaiDay } from "../../common/locale.ts";
import { presentViewer } from "../accounts/viewer.ts";
import { recordView } from "../metrics/views.ts";
import { listCreatorContent } from "./content.ts";

type Figures = { views: number; likes: number; favorites: number; comments: number; followers: number };
type Stats = { content: Record<string, number>; last_7_days: Figures; last_30_days: Figures; total: Figures };
type ContentPage = {
  items: {
    type: string;
    kind: string;
    id: number;
    title: string;
    status: string;
    views: number;
    likes: number;
    comments: number;
    edit_path: string;
  }[];
  next_cursor: string | null;
};
type CommentPage = {
  items: { id: number; body: string; subject: { type: string; id: number; title: string; path: string }; author: { id: number } }[];
  next_cursor: string | null;
};

/** The creator's desk (issue 21 "Feeds and the creator's desk"). */
describe.each(databaseKinds)("creator API on %s", (kind) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi(kind);
  });
  afterAll(() => api.close());
  const db = () => api.database.db;
  const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000 - 60_000);

  it("is for the signed in only", async () => {
    const anonymous = new Visitor(api.app);
    for (const path of ["/api/creator/", "/api/creator/content/", "/api/creator/comments/"])
      expect((await anonymous.get(path)).statusCode).toBe(401);
  });

  it("counts content, and views, likes, favourites, comments and new followers over 7 and 30 days (from events and view rows) and in all", async () => {
    const { user: creator, visitor: creatorVisitor } = await createSignedInUser(api.app, db());
    const { visitor: fan } = await createSignedInUser(api.app, db());
    const { user: oldFanUser, visitor: oldFan } = await createSignedInUser(api.app, db());
    const article = await createWriting(db(), creator);
    await createWriting(db(), creator, { type: "post" });
    const book = await createBook(db(), creator, { chapters: ["一", "二"] });

    // This week: a view, a like, a favourite, a comment and a follower.
    await recordView({ db: db() }, { type: "writing", id: article.id }, "v:fan", { bot: false });
    expect((await fan.request("PUT", `/api/subjects/writing/${article.id}/reaction/`, { json: { reaction: "like" } })).statusCode).toBe(
      200,
    );
    expect((await fan.request("PUT", `/api/subjects/book/${book.id}/favorite/`, { json: {} })).statusCode).toBe(200);
    expect((await fan.post(`/api/writings/${article.id}/comments/`, { body: "写得好" })).statusCode).toBe(201);
    expect((await fan.post(`/api/Users/follow/${creator.username}/`)).statusCode).toBe(200);
    // Three weeks ago: a like and a follower by another reader, and a book view; two months ago: a comment.
    expect((await oldFan.request("PUT", `/api/subjects/book/${book.id}/reaction/`, { json: { reaction: "like" } })).statusCode).toBe(200);
    expect((await oldFan.post(`/api/Users/follow/${creator.username}/`)).statusCode).toBe(200);
    await db()
      .update(reactions)
      .set({ createdAt: daysAgo(21) })
      .where(eq(reactions.userId, oldFanUser.id));
    await db()
      .update(follows)
      .set({ createdAt: daysAgo(21) })
      .where(eq(follows.followerId, oldFanUser.id));
    await db()
      .insert(subjectViews)
      .values({ subjectType: "book", subjectId: book.id, visitor: "user:old", day: shanghaiDay(daysAgo(20)) });
    await db()
      .update(books)
      .set({ views: sql`${books.views} + 1` })
      .where(eq(books.id, book.id));
    await createComment(db(), article.id, await createUser(db()), { createdAt: daysAgo(60) });
    // Their own comment does not count.
    expect((await creatorVisitor.post(`/api/writings/${article.id}/comments/`, { body: "谢谢" })).statusCode).toBe(201);

    const stats = (await creatorVisitor.get("/api/creator/")).json() as Stats;
    expect(stats.content).toEqual({ articles: 1, serials: 0, posts: 1, books: 1, chapters: 2 });
    expect(stats.last_7_days).toEqual({ views: 1, likes: 1, favorites: 1, comments: 1, followers: 1 });
    expect(stats.last_30_days).toEqual({ views: 2, likes: 2, favorites: 1, comments: 1, followers: 2 });
    expect(stats.total).toEqual({ views: 2, likes: 2, favorites: 1, comments: 2, followers: 2 });
    // Someone else's desk is their own.
    expect(((await fan.get("/api/creator/")).json() as Stats).total.followers).toBe(0);
  });

  it("lists the user's writings and books with status and counts, filters by kind, searches titles, pages by cursor, and deletes only what the rules allow", async () => {
    const { user: creator, visitor } = await createSignedInUser(api.app, db());
    const { visitor: other } = await createSignedInUser(api.app, db());
    const article = await createWriting(db(), creator, { title: "Monad 入门" });
    const post = await createWriting(db(), creator, { type: "post", title: "一条帖子" });
    const book = await createBook(db(), creator, { name: "函数式 monad 之书" });
    await createWriting(db(), await createUser(db()), { title: "别人的 Monad" });
    const base = new Date(Date.now() - 3_600_000);
    await db()
      .update(writings)
      .set({ publishedAt: new Date(base.getTime() + 1_000) })
      .where(eq(writings.id, article.id));
    await db()
      .update(writings)
      .set({ publishedAt: new Date(base.getTime() + 2_000) })
      .where(eq(writings.id, post.id));
    await db()
      .update(books)
      .set({ createdAt: new Date(base.getTime() + 3_000), state: "completed" })
      .where(eq(books.id, book.id));

    const all = (await visitor.get("/api/creator/content/")).json() as ContentPage;
    expect(all.items.map((item) => `${item.type}-${item.id}`)).toEqual([`book-${book.id}`, `writing-${post.id}`, `writing-${article.id}`]);
    expect(all.items[0]).toMatchObject({ kind: "book", status: "completed", edit_path: `/circles/1/write/book/${book.id}` });
    expect(all.items[2]).toMatchObject({ kind: "article", status: "published", edit_path: `/circles/1/write/article?edit=${article.id}` });
    const onlyBooks = (await visitor.get("/api/creator/content/?kind=book")).json() as ContentPage;
    expect(onlyBooks.items.map((item) => item.id)).toEqual([book.id]);
    const posts = (await visitor.get("/api/creator/content/?kind=post")).json() as ContentPage;
    expect(posts.items.map((item) => item.id)).toEqual([post.id]);
    const search = (await visitor.get(`/api/creator/content/?q=${encodeURIComponent("MONAD")}`)).json() as ContentPage;
    expect(search.items.map((item) => `${item.type}-${item.id}`)).toEqual([`book-${book.id}`, `writing-${article.id}`]);
    // LIKE's wildcards are searched as typed.
    expect(((await visitor.get("/api/creator/content/?q=%25")).json() as ContentPage).items).toEqual([]);

    // Paging: one at a time, each once, in order.
    const viewer = presentViewer(creator);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page = await listCreatorContent(db(), viewer, { cursor, limit: 1 });
      seen.push(...page.items.map((item) => `${item.type}-${item.id}`));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(all.items.map((item) => `${item.type}-${item.id}`));

    // Someone else may not delete it; the author may; an unknown kind is not found.
    expect((await other.request("DELETE", `/api/creator/content/writing/${article.id}/`)).statusCode).toBe(403);
    expect((await other.request("DELETE", `/api/creator/content/book/${book.id}/`)).statusCode).toBe(403);
    expect((await visitor.request("DELETE", `/api/creator/content/question/${article.id}/`)).statusCode).toBe(404);
    expect((await visitor.request("DELETE", `/api/creator/content/writing/${article.id}/`)).statusCode).toBe(204);
    expect((await visitor.request("DELETE", `/api/creator/content/book/${book.id}/`)).statusCode).toBe(204);
    const left = (await visitor.get("/api/creator/content/")).json() as ContentPage;
    expect(left.items.map((item) => item.id)).toEqual([post.id]);
  });

  it("lists others' comments on the user's content only, newest first, paged; the content's author may delete them", async () => {
    const { user: creator, visitor } = await createSignedInUser(api.app, db());
    const { user: reader, visitor: readerVisitor } = await createSignedInUser(api.app, db());
    const mine = await createWriting(db(), creator, { title: "我的文章" });
    const theirs = await createWriting(db(), reader, { title: "别人的文章" });
    const first = await createComment(db(), mine.id, reader, { body: "第一条" });
    const onTheirs = await createComment(db(), theirs.id, await createUser(db()), { body: "不相关" });
    const second = await createComment(db(), mine.id, reader, { body: "第二条" });
    await db()
      .update(comments)
      .set({ createdAt: new Date(Date.now() - 60_000) })
      .where(eq(comments.id, first.id));
    await createComment(db(), mine.id, creator, { body: "作者自己的" });

    const page = (await visitor.get("/api/creator/comments/")).json() as CommentPage;
    expect(page.items.map((item) => item.id)).toEqual([second.id, first.id]);
    expect(page.items[0]).toMatchObject({
      body: "第二条",
      author: { id: reader.id },
      subject: { type: "writing", id: mine.id, title: "我的文章", path: `/circles/1/writing/${mine.id}` },
    });
    const firstPage = (await visitor.get("/api/creator/comments/?cursor=")).json() as CommentPage;
    expect(firstPage.items.map((item) => item.id)).not.toContain(onTheirs.id);
    // The reader's desk shows the comment on their writing, not the ones they wrote.
    expect(((await readerVisitor.get("/api/creator/comments/")).json() as CommentPage).items.map((item) => item.id)).toEqual([onTheirs.id]);

    // Paging by cursor.
    const { listCommentsOnMyContent } = await import("./comments.ts");
    const one = await listCommentsOnMyContent(db(), presentViewer(creator), { limit: 1 });
    expect(one.items.map((item) => item.id)).toEqual([second.id]);
    const two = await listCommentsOnMyContent(db(), presentViewer(creator), { limit: 1, cursor: one.nextCursor });
    expect(two.items.map((item) => item.id)).toEqual([first.id]);
    expect(two.nextCursor).toBeNull();

    // The writing's author deletes a reader's comment on it; it leaves the desk.
    expect((await visitor.request("DELETE", `/api/comments/${second.id}/`)).statusCode).toBe(204);
    expect(((await visitor.get("/api/creator/comments/")).json() as CommentPage).items.map((item) => item.id)).toEqual([first.id]);
  });

  it("lists comments on the user's questions, answers and entries too: every commentable kind reaches the desk", async () => {
    const { user: creator, visitor } = await createSignedInUser(api.app, db());
    const reader = await createUser(db());
    const asker = await createUser(db());
    const question = await createQuestion(db(), creator, { title: "我的问题" });
    const answered = await createQuestion(db(), asker, { title: "别人的问题", answerers: [creator] });
    const entry = await createEntry(db(), 1, creator, { name: "我的词条" });
    const comment = (type: "question" | "answer" | "entry", subjectId: number, body: string) =>
      db()
        .insert(comments)
        .values({ subjectType: type, subjectId, authorId: reader.id, body })
        .returning()
        .then((rows) => rows[0]!);
    const onQuestion = await comment("question", question.id, "问题下的评论");
    const onAnswer = await comment("answer", answered.answers[0]!.id, "回答下的评论");
    const onEntry = await comment("entry", entry.id, "词条下的评论");

    const page = (await visitor.get("/api/creator/comments/")).json() as CommentPage;
    const byId = new Map(page.items.map((item) => [item.id, item.subject]));
    expect(byId.get(onQuestion.id)).toMatchObject({ type: "question", id: question.id, title: "我的问题" });
    expect(byId.get(onAnswer.id)).toMatchObject({ type: "answer", id: answered.answers[0]!.id, title: "别人的问题" });
    expect(byId.get(onEntry.id)).toMatchObject({ type: "entry", id: entry.id, title: "我的词条" });
    for (const subject of byId.values()) expect(subject.path).toMatch(/^\/circles\/1\//);
  });
});
