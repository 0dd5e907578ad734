import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { createTestApi, Visitor, type TestApi } from "../../tests/support/api.ts";
import { addMember, createBook, createCircle, createSignedInUser } from "../../tests/support/factories.ts";
import { wholeSitemap } from "../../tests/support/sitemap.ts";
import { databaseKinds } from "../../tests/support/database.ts";
import { testPng } from "../../tests/support/images.ts";
import { bookChapters, books } from "../../server/db/schema/index.ts";

/** A multipart body as a browser's form sends it (fields, and optionally one file). */
function multipart(fields: Record<string, string>, file?: { name: string; filename: string; bytes: Buffer; type: string }) {
  const boundary = `----books${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = Object.entries(fields).map(([name, value]) =>
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
  );
  if (file) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.name}"; filename="${file.filename}"\r\nContent-Type: ${file.type}\r\n\r\n`,
      ),
      file.bytes,
      Buffer.from("\r\n"),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), headers: { "content-type": `multipart/form-data; boundary=${boundary}` } };
}

/**
 * The book pages as plain HTML documents (no JavaScript): guards, the server's confirmation
 * questions, uploads, large chapters, redirects and the sitemap, in this process (app.inject).
 */
describe.each(databaseKinds)("book pages on %s", (kind) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi(kind, { pages: true });
  });
  afterAll(() => api.close());
  const db = () => api.database.db;

  async function authorWithBook(chapters = 2, circleId = 1) {
    const author = await createSignedInUser(api.app, db());
    const titles = Array.from({ length: chapters }, (_, index) => `章${index + 1}`);
    const book = await createBook(db(), author.user, { circleId, name: "无脚本之书", chapters: titles });
    const id = book.id;
    const chapterIds = book.chapters.map((chapter) => chapter.id);
    const post = async (path: string, fields: Record<string, string>) => {
      const { body, headers } = multipart({ csrftoken: await author.visitor.csrfToken(), ...fields });
      return author.visitor.request("POST", path, { body, headers, csrf: false });
    };
    return { ...author, id, chapterIds, post, path: `/circles/${circleId}/write/book/${id}` };
  }

  it("sends visitors to log in from the write pages, and shows a stranger's book editor as 403", async () => {
    const visitor = new Visitor(api.app);
    const response = await visitor.get("/circles/1/write/book");
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe(`/login?next=${encodeURIComponent("/circles/1/write/book")}`);
    const { id } = await authorWithBook(0);
    const stranger = await createSignedInUser(api.app, db());
    expect((await stranger.visitor.get(`/circles/1/write/book/${id}`)).statusCode).toBe(403);
    expect((await stranger.visitor.get(`/en/circles/1/write/book/${id}/add-chapter`)).statusCode).toBe(403);
  });

  it("answers a book or chapter without a name inline, the form opening at that field, and moves a chapter without JavaScript", async () => {
    const author = await authorWithBook(2);
    const nameless = await author.post(author.path, { intent: "save", name: " ", description: "留下的简介" });
    expect(nameless.statusCode).toBe(400);
    expect(nameless.body).toMatch(/<div class="form-error"[^>]*data-field-error="book-name"[^>]*>请输入书名。<\/div>/);
    expect(nameless.body).toMatch(/id="book-name"[^>]*autofocus/);
    expect(nameless.body).toContain("留下的简介");
    // The categories are a fieldset with a legend like the rest of the form.
    expect(nameless.body).toMatch(/<fieldset class="form-field choice-group"><legend>/);
    const untitled = await author.post(`${author.path}/add-chapter`, { intent: "publish", title: "", content: "正文还在" });
    expect(untitled.statusCode).toBe(400);
    expect(untitled.body).toMatch(/id="chapter-title"[^>]*autofocus/);
    expect(untitled.body).toContain("正文还在");
    const moved = await author.post(author.path, { intent: "move", chapter_id: String(author.chapterIds[1]), number: "1" });
    expect(moved.statusCode).toBe(200);
    const order = await db().select().from(bookChapters).where(eq(bookChapters.bookId, author.id));
    expect(order.find((chapter) => chapter.id === author.chapterIds[1])!.number).toBe(1);
    expect((await author.post(author.path, { intent: "unknown" })).statusCode).toBe(400);
  });

  it("asks on the page before completing, resuming and deleting when the form is posted without JavaScript", async () => {
    const author = await authorWithBook(2);
    const asked = await author.post(author.path, { intent: "complete" });
    expect(asked.statusCode).toBe(200);
    expect(asked.body).toContain('role="alertdialog"');
    expect(asked.body).toContain("确定将本书标记为已完结吗？");
    expect((await db().select().from(books).where(eq(books.id, author.id)))[0]!.state).toBe("updating");
    const done = await author.post(author.path, { intent: "complete", confirmed: "1" });
    expect(done.body).toContain("本书已成功完结，之后仍可继续更新。");
    expect((await db().select().from(books).where(eq(books.id, author.id)))[0]!.state).toBe("completed");
    expect((await author.visitor.get(`${author.path}/add-chapter`)).statusCode).toBe(409);
    const resume = await author.post(`/en${author.path}`, { intent: "resume" });
    expect(resume.body).toContain("Are you sure you want to resume updating this book?");
    await author.post(`/en${author.path}`, { intent: "resume", confirmed: "1" });
    expect((await db().select().from(books).where(eq(books.id, author.id)))[0]!.state).toBe("updating");

    const question = await author.post(author.path, { intent: "delete_chapter", chapter_id: String(author.chapterIds[0]) });
    expect(question.body).toContain("此操作不可撤销");
    expect(await db().select().from(bookChapters).where(eq(bookChapters.bookId, author.id))).toHaveLength(2);
    await author.post(author.path, { intent: "delete_chapter", chapter_id: String(author.chapterIds[0]), confirmed: "1" });
    const left = await db().select().from(bookChapters).where(eq(bookChapters.bookId, author.id));
    expect(left.map((chapter) => [chapter.id, chapter.number])).toEqual([[author.chapterIds[1], 1]]);

    const gone = await author.post(author.path, { intent: "delete_book", confirmed: "1" });
    expect(gone.statusCode).toBe(302);
    expect(gone.headers.location).toBe("/circles/1?tab=books");
    expect(await db().select().from(books).where(eq(books.id, author.id))).toEqual([]);
  });

  it("creates a book with a cover uploaded through the form, and refuses another type with the localized message", async () => {
    const { visitor } = await createSignedInUser(api.app, db());
    const form = multipart(
      { csrftoken: await visitor.csrfToken(), intent: "save", name: "有封面的书", description: "简介" },
      { name: "cover", filename: "c.png", bytes: await testPng(400, 600), type: "image/png" },
    );
    const created = await visitor.request("POST", "/circles/1/write/book", { body: form.body, headers: form.headers, csrf: false });
    expect(created.statusCode).toBe(302);
    const id = Number(/\/write\/book\/(\d+)\?notice=created$/.exec(String(created.headers.location))![1]);
    const [row] = await db().select().from(books).where(eq(books.id, id));
    expect(row!.coverFileId).toMatch(/^[A-Za-z0-9_-]{24}$/);
    const page = await new Visitor(api.app).get(`/circles/1/books/${id}`);
    expect(page.body).toContain(`src="/attach/${row!.coverFileId}"`);
    const wrong = multipart(
      { csrftoken: await visitor.csrfToken(), intent: "save", name: "坏封面" },
      { name: "cover", filename: "c.png", bytes: Buffer.from("<svg/>"), type: "image/png" },
    );
    const refused = await visitor.request("POST", "/en/circles/1/write/book", { body: wrong.body, headers: wrong.headers, csrf: false });
    expect(refused.statusCode).toBe(415);
    expect(refused.body).toContain("form-alert");
  });

  it("never lets a book's texts break out of the page's JSON-LD or meta tags", async () => {
    const { visitor } = await createSignedInUser(api.app, db());
    const name = '</script><script>alert(1)</script>"';
    const id = (await visitor.post("/api/circles/1/books/", { name, description: "<img src=x onerror=alert(2)>" })).json().id;
    const page = (await new Visitor(api.app).get(`/circles/1/books/${id}`)).body;
    expect(page).not.toContain("<script>alert(1)");
    expect(page).not.toContain("<img src=x");
    expect(page).toContain('type="application/ld+json"');
  });

  it("previews and publishes a long chapter (over the ordinary form limit) from the plain form", async () => {
    const author = await authorWithBook(0);
    const content = `# 长章\n\n${"天地玄黄，宇宙洪荒。".repeat(6000)}\n\n$$a^2 + b^2 = c^2$$`;
    const token = await author.visitor.csrfToken();
    const preview = await author.visitor.postForm(`${author.path}/add-chapter`, {
      csrftoken: token,
      intent: "preview",
      title: "长章",
      content,
    });
    expect(preview.statusCode).toBe(200);
    expect(preview.body).toMatch(/data-testid="preview"><div class="rendered-content">/);
    expect(preview.body).toContain("katex");
    const published = await author.visitor.postForm(`${author.path}/add-chapter`, {
      csrftoken: token,
      intent: "publish",
      title: "长章",
      content,
    });
    expect(published.statusCode).toBe(302);
    expect(published.headers.location).toBe(`${author.path}?notice=chapter_added&number=1`);
    const empty = await author.visitor.postForm(`/en${author.path}/add-chapter`, {
      csrftoken: token,
      intent: "publish",
      title: "",
      content: "",
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.body).toContain("Please enter the chapter&#x27;s title.");
  });

  it("redirects a book or chapter under the wrong circle with 301, hides books of hidden circles (404 screen), lists readable ones in the sitemap", async () => {
    const author = await authorWithBook(1);
    const chapter = await new Visitor(api.app).get(`/en/circles/2/books/${author.id}/chapters/${author.chapterIds[0]}`);
    expect(chapter.statusCode).toBe(301);
    expect(chapter.headers.location).toBe(`/en/circles/1/books/${author.id}/chapters/${author.chapterIds[0]}`);
    const legacy = await new Visitor(api.app).get(`/books/${author.id}`);
    expect([301, 302, 308]).toContain(legacy.statusCode);

    const hiddenCircle = await createCircle(db(), { visibility: "members" });
    const member = await createSignedInUser(api.app, db());
    await addMember(db(), hiddenCircle.id, member.user.id);
    const hiddenId = (await member.visitor.post(`/api/circles/${hiddenCircle.id}/books/`, { name: "秘密" })).json().id;
    const hidden = await new Visitor(api.app).get(`/circles/${hiddenCircle.id}/books/${hiddenId}`);
    expect(hidden.statusCode).toBe(404);
    expect((await member.visitor.get(`/circles/${hiddenCircle.id}/books/${hiddenId}`)).statusCode).toBe(200);

    const sitemap = await wholeSitemap(async (path) => (await new Visitor(api.app).get(path)).body);
    expect(sitemap).toContain(`/circles/1/books/${author.id}</loc>`);
    expect(sitemap).toContain(`/en/circles/1/books/${author.id}/chapters/${author.chapterIds[0]}</loc>`);
    expect(sitemap).not.toContain(`/books/${hiddenId}<`);

    const tab = (await new Visitor(api.app).get("/circles/1?tab=books")).body;
    expect(tab).toContain(`href="/circles/1/books/${author.id}"`);
  });
});
