import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { createTestApi, Visitor, type TestApi } from "../../tests/support/api.ts";
import { createBook, createComment, createSignedInUser, createWriting } from "../../tests/support/factories.ts";
import { databaseKinds } from "../../tests/support/database.ts";
import { books, comments, writings } from "../../server/db/schema/index.ts";

/** The creator centre's pages as plain HTML (no JavaScript), in both languages, in this process. */
describe.each(databaseKinds)("creator pages on %s", (kind) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi(kind, { pages: true });
  });
  afterAll(() => api.close());
  const db = () => api.database.db;

  it("sends visitors to log in, and links the creator centre from the account menu", async () => {
    const visitor = new Visitor(api.app);
    for (const path of ["/creator", "/en/creator/manage/content", "/creator/manage/comment"]) {
      const response = await visitor.get(path);
      expect(response.statusCode).toBe(302);
      const english = path.startsWith("/en/");
      expect(response.headers.location).toBe(`${english ? "/en" : ""}/login?next=${encodeURIComponent(english ? path.slice(3) : path)}`);
    }
    const { visitor: signedIn } = await createSignedInUser(api.app, db());
    const home = await signedIn.get("/");
    expect(home.body).toContain('href="/creator"');
    expect(home.body).toContain("创作中心");
    expect((await signedIn.get("/en/about")).body).toContain('href="/en/creator"');
  });

  it("shows the hub's counts and figures with links to the manage pages, in Chinese and English", async () => {
    const { user, visitor } = await createSignedInUser(api.app, db());
    await createWriting(db(), user);
    await createWriting(db(), user, { type: "post" });
    await createBook(db(), user, { chapters: ["一"] });
    const zh = await visitor.get("/creator");
    expect(zh.statusCode).toBe(200);
    expect(zh.headers["cache-control"]).toContain("private");
    expect(zh.body).toContain("<h1");
    expect(zh.body).toContain("创作中心");
    expect(zh.body).toContain("近 7 天");
    expect(zh.body).toContain("近 30 天");
    expect(zh.body).toMatch(/data-key="articles"[^]*?<dd>1<\/dd>/);
    expect(zh.body).toMatch(/data-key="chapters"[^]*?<dd>1<\/dd>/);
    expect(zh.body).toContain('href="/creator/manage/content"');
    expect(zh.body).toContain('href="/creator/manage/comment"');
    // The creator menu links every creator page, the monetization entry too.
    expect(zh.body).toContain('href="/creator/analysis/content"');
    expect(zh.body).toContain('href="/creator/monetization"');
    const en = await visitor.get("/en/creator");
    expect(en.body).toContain("Creator centre");
    expect(en.body).toContain("Last 7 days");
    expect(en.body).toContain("New followers");
    expect(en.body).toContain('href="/en/creator/manage/comment"');
  });

  it("lists, filters, searches and deletes content with the question on the page (zh), and in English", async () => {
    const { user, visitor } = await createSignedInUser(api.app, db());
    const { visitor: stranger } = await createSignedInUser(api.app, db());
    const article = await createWriting(db(), user, { title: "无脚本的文章" });
    const book = await createBook(db(), user, { name: "无脚本的书" });
    const list = await visitor.get("/creator/manage/content");
    expect(list.statusCode).toBe(200);
    expect(list.body).toContain("无脚本的文章");
    expect(list.body).toContain("无脚本的书");
    expect(list.body).toContain("已发布");
    expect(list.body).toContain("连载中");
    expect(list.body).toContain(`href="/circles/1/write/article?edit=${article.id}"`);
    expect(list.body).toContain(`href="/circles/1/write/book/${book.id}"`);
    const onlyBooks = await visitor.get("/creator/manage/content?kind=book");
    expect(onlyBooks.body).toContain("无脚本的书");
    expect(onlyBooks.body).not.toContain("无脚本的文章");
    const search = await visitor.get(`/creator/manage/content?q=${encodeURIComponent("文章")}`);
    expect(search.body).toContain("无脚本的文章");
    expect(search.body).not.toContain("无脚本的书");
    const nothing = await visitor.get(`/creator/manage/content?q=${encodeURIComponent("不存在的")}`);
    expect(nothing.body).toContain("没有符合搜索条件的内容。");

    const csrftoken = await visitor.csrfToken();
    // First post: the question, on the page; nothing deleted.
    const asked = await visitor.postForm("/creator/manage/content", {
      csrftoken,
      intent: "delete",
      type: "writing",
      id: String(article.id),
    });
    expect(asked.statusCode).toBe(200);
    expect(asked.body).toContain('role="alertdialog"');
    expect(asked.body).toContain("确定永久删除《无脚本的文章》吗？");
    expect(await db().select().from(writings).where(eq(writings.id, article.id))).toHaveLength(1);
    // Someone else's confirmed delete is refused.
    const refused = await stranger.postForm("/creator/manage/content", {
      csrftoken: await stranger.csrfToken(),
      intent: "delete",
      type: "writing",
      id: String(article.id),
      confirmed: "1",
    });
    expect(refused.statusCode).toBe(403);
    // The answer deletes, then back to the list (PRG) with the notice.
    const done = await visitor.postForm("/creator/manage/content?kind=article", {
      csrftoken,
      intent: "delete",
      type: "writing",
      id: String(article.id),
      confirmed: "1",
    });
    expect(done.statusCode).toBe(303);
    expect(done.headers.location).toBe("/creator/manage/content?kind=article&notice=deleted");
    expect(await db().select().from(writings).where(eq(writings.id, article.id))).toHaveLength(0);
    expect((await visitor.get(done.headers.location as string)).body).toContain("已删除。");

    // English: the same page and question.
    const en = await visitor.get("/en/creator/manage/content");
    expect(en.body).toContain("Manage content");
    expect(en.body).toContain("Updating");
    const enAsked = await visitor.postForm("/en/creator/manage/content", {
      csrftoken,
      intent: "delete",
      type: "book",
      id: String(book.id),
    });
    expect(enAsked.body).toContain("Delete “无脚本的书” for good? This cannot be undone.");
    const enDone = await visitor.postForm("/en/creator/manage/content", {
      csrftoken,
      intent: "delete",
      type: "book",
      id: String(book.id),
      confirmed: "1",
    });
    expect(enDone.headers.location).toBe("/en/creator/manage/content?notice=deleted");
    expect(await db().select().from(books).where(eq(books.id, book.id))).toHaveLength(0);
  });

  it("lists comments on the user's content with reply, delete and report, in Chinese and English", async () => {
    const { user, visitor } = await createSignedInUser(api.app, db());
    const { user: reader } = await createSignedInUser(api.app, db());
    const writing = await createWriting(db(), user, { title: "收到评论的文章" });
    const comment = await createComment(db(), writing.id, reader, { body: "一条读者评论" });
    const page = await visitor.get("/creator/manage/comment");
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain("一条读者评论");
    expect(page.body).toContain(`href="/circles/1/writing/${writing.id}"`);
    expect(page.body).toContain(`href="/subjects/comment/${comment.id}/report"`);
    const csrftoken = await visitor.csrfToken();

    // An empty reply comes back with the localized message, nothing posted.
    const empty = await visitor.postForm("/creator/manage/comment", { csrftoken, intent: "reply", id: String(comment.id), body: "  " });
    expect(empty.statusCode).toBe(400);
    expect(empty.body).toContain('role="alert"');
    const replied = await visitor.postForm("/creator/manage/comment", {
      csrftoken,
      intent: "reply",
      id: String(comment.id),
      body: "谢谢你的评论",
    });
    expect(replied.statusCode).toBe(303);
    expect(replied.headers.location).toBe("/creator/manage/comment?notice=replied");
    const [reply] = await db().select().from(comments).where(eq(comments.parentId, comment.id));
    expect(reply).toMatchObject({ authorId: user.id, body: "谢谢你的评论", subjectId: writing.id });

    const asked = await visitor.postForm("/en/creator/manage/comment", { csrftoken, intent: "delete", id: String(comment.id) });
    expect(asked.body).toContain("Delete this comment for good? This cannot be undone.");
    const deleted = await visitor.postForm("/en/creator/manage/comment", {
      csrftoken,
      intent: "delete",
      id: String(comment.id),
      confirmed: "1",
    });
    expect(deleted.headers.location).toBe("/en/creator/manage/comment?notice=deleted");
    const [gone] = await db().select().from(comments).where(eq(comments.id, comment.id));
    expect(gone!.deletedAt).not.toBeNull();
    const after = await visitor.get("/en/creator/manage/comment?notice=deleted");
    expect(after.body).toContain("The comment was deleted.");
    expect(after.body).not.toContain("一条读者评论");
    expect(after.body).toContain("Nobody has commented on your content yet.");
  });
});
