import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { createTestApi, Visitor, type TestApi } from "../../tests/support/api.ts";
import { addCategory, addMember, createCircle, createSignedInUser } from "../../tests/support/factories.ts";
import { databaseKinds } from "../../tests/support/database.ts";
import { testPng } from "../../tests/support/images.ts";
import { bookChapters, books, events } from "../../server/db/schema/index.ts";
import { onInvalidate } from "../../server/lib/invalidation.ts";

interface ChapterItem {
  id: number;
  number: number;
  title: string;
}

describe.each(databaseKinds)("books API on %s", (kind) => {
  let api: TestApi;
  let now = new Date("2026-03-10T04:00:00Z");
  beforeAll(async () => {
    api = await createTestApi(kind, { now: () => now });
  });
  afterAll(() => api.close());

  const db = () => api.database.db;
  const signedIn = () => createSignedInUser(api.app, db());
  const english = { "accept-language": "en" };
  const eventsOf = (verb: string, bookId: number) =>
    db()
      .select()
      .from(events)
      .where(and(eq(events.verb, verb), eq(events.subjectId, bookId)));

  /** A book by a fresh user in a fresh public circle. */
  async function bookWithAuthor(chapters = 0) {
    const author = await signedIn();
    const circle = await createCircle(db());
    const created = await author.visitor.post(`/api/circles/${circle.id}/books/`, { name: "测试之书", description: "简介" });
    expect(created.statusCode).toBe(201);
    const id = created.json().id as number;
    const chapterIds: number[] = [];
    for (let index = 1; index <= chapters; index += 1) {
      const response = await author.visitor.post(`/api/books/${id}/chapters/`, {
        title: `第${index}章`,
        content: `# 标题 ${index}\n\n正文 ${index}`,
      });
      expect(response.statusCode).toBe(201);
      chapterIds.push(response.json().id);
    }
    return { author, circle, id, chapterIds };
  }

  const chapterOrder = async (visitor: Visitor, id: number) =>
    ((await visitor.get(`/api/books/${id}/`)).json().chapters as ChapterItem[]).map((chapter) => [chapter.number, chapter.id]);

  describe("creating and reading", () => {
    it("creates a book in a circle: 201 with id and url, updating, by the author, with an event and counted in the circle", async () => {
      const { user, visitor } = await signedIn();
      const circle = await createCircle(db());
      const category = await addCategory(db(), circle.id, { name: "小说" });
      const response = await visitor.post(`/api/circles/${circle.id}/books/`, {
        name: "  星辰大海  ",
        description: "一本关于星空的书",
        categories: [category.id, category.id],
      });
      expect(response.statusCode).toBe(201);
      const { id, url } = response.json();
      expect(url).toBe(`/circles/${circle.id}/books/${id}`);
      const book = (await new Visitor(api.app).get(`/api/books/${id}/`)).json();
      expect(book).toMatchObject({
        id,
        circle_id: circle.id,
        name: "星辰大海",
        description: "一本关于星空的书",
        state: "updating",
        views: 0,
        chapter_count: 0,
        latest_chapter: null,
        chapters: [],
        cover: null,
      });
      expect(book.author).toMatchObject({ id: user.id, username: user.username });
      expect(book.categories).toEqual([{ id: category.id, name: "小说" }]);
      expect(book.can).toEqual({ edit: false, delete: false });
      expect((await visitor.get(`/api/books/${id}/`)).json().can).toEqual({ edit: true, delete: true });
      expect(await eventsOf("book.created", id)).toHaveLength(1);
      const circlePage = (await visitor.get(`/api/circles/${circle.id}/`)).json();
      expect(circlePage.counts.content.books).toBe(1);
      const list = (await new Visitor(api.app).get(`/api/circles/${circle.id}/books/`)).json();
      expect(list).toMatchObject({ total: 1, page: 1, page_count: 1, can: { create: false } });
      expect(list.books.map((item: { id: number }) => item.id)).toEqual([id]);
    });

    it("validates input with localized field messages; needs a session, the CSRF header and the circle's own categories", async () => {
      const { visitor } = await signedIn();
      const circle = await createCircle(db());
      const empty = await visitor.post(`/api/circles/${circle.id}/books/`, { name: "   " }, english);
      expect(empty.statusCode).toBe(400);
      expect(empty.json().fields).toEqual({ name: "Please enter the book's name." });
      expect((await visitor.post(`/api/circles/${circle.id}/books/`, { name: "x".repeat(61) })).statusCode).toBe(400);
      expect((await visitor.post(`/api/circles/${circle.id}/books/`, { name: "Go", extra: 1 })).statusCode).toBe(400);
      const foreign = await addCategory(db(), (await createCircle(db())).id);
      const wrongCategory = await visitor.post(`/api/circles/${circle.id}/books/`, { name: "Go", categories: [foreign.id] }, english);
      expect(wrongCategory.statusCode).toBe(400);
      expect(wrongCategory.json().fields).toEqual({ categories: "Choose categories of this circle." });
      expect((await new Visitor(api.app).post(`/api/circles/${circle.id}/books/`, { name: "Go" })).statusCode).toBe(401);
      expect((await visitor.request("POST", `/api/circles/${circle.id}/books/`, { json: { name: "Go" }, csrf: false })).statusCode).toBe(
        403,
      );
      expect((await visitor.post(`/api/circles/99999999/books/`, { name: "Go" })).statusCode).toBe(404);
    });

    it("takes a cover the author uploaded, never somebody else's upload", async () => {
      const { visitor } = await signedIn();
      const other = await signedIn();
      const circle = await createCircle(db());
      const upload = await visitor.upload("/api/uploads/", { bytes: await testPng(), filename: "cover.png", contentType: "image/png" });
      expect(upload.statusCode).toBe(201);
      const fileId = upload.json().file_id as string;
      const created = await visitor.post(`/api/circles/${circle.id}/books/`, { name: "有封面", cover: fileId });
      expect(created.statusCode).toBe(201);
      expect((await visitor.get(`/api/books/${created.json().id}/`)).json().cover).toBe(`/attach/${fileId}`);
      const stolen = await other.visitor.post(`/api/circles/${circle.id}/books/`, { name: "偷封面", cover: fileId }, english);
      expect(stolen.statusCode).toBe(400);
      expect(stolen.json().fields).toEqual({ cover: "The cover must be an image you uploaded." });
      const removed = await visitor.request("PATCH", `/api/books/${created.json().id}/`, { json: { cover: null } });
      expect(removed.json().cover).toBeNull();
    });

    it("follows the circle's visibility: hidden circle 404, members-only content 401 for visitors and 403 for others; only writers create", async () => {
      const member = await signedIn();
      const stranger = await signedIn();
      const hidden = await createCircle(db(), { visibility: "members" });
      const closed = await createCircle(db(), { visibility: "circle" });
      await addMember(db(), hidden.id, member.user.id);
      await addMember(db(), closed.id, member.user.id);
      const inHidden = (await member.visitor.post(`/api/circles/${hidden.id}/books/`, { name: "秘密之书" })).json().id;
      const inClosed = (await member.visitor.post(`/api/circles/${closed.id}/books/`, { name: "圈内之书" })).json().id;
      expect((await stranger.visitor.get(`/api/books/${inHidden}/`)).statusCode).toBe(404);
      expect((await new Visitor(api.app).get(`/api/books/${inHidden}/`)).statusCode).toBe(404);
      expect((await stranger.visitor.get(`/api/books/999999/`)).statusCode).toBe(404);
      expect((await new Visitor(api.app).get(`/api/books/${inClosed}/`)).statusCode).toBe(401);
      expect((await stranger.visitor.get(`/api/books/${inClosed}/`)).statusCode).toBe(403);
      expect((await member.visitor.get(`/api/books/${inClosed}/`)).statusCode).toBe(200);
      expect((await stranger.visitor.post(`/api/circles/${closed.id}/books/`, { name: "不许" })).statusCode).toBe(403);
      expect((await stranger.visitor.post(`/api/circles/${hidden.id}/books/`, { name: "不许" })).statusCode).toBe(404);
      expect((await stranger.visitor.get(`/api/circles/${hidden.id}/books/`)).statusCode).toBe(404);
    });
  });

  describe("editing, states and deleting", () => {
    it("lets the author and the circle's moderators edit; others get 403; every change moves 'last updated' and evicts the book's pages", async () => {
      const { author, circle, id } = await bookWithAuthor();
      const stranger = await signedIn();
      const master = await signedIn();
      await addMember(db(), circle.id, master.user.id, "master");
      const plainMember = await signedIn();
      await addMember(db(), circle.id, plainMember.user.id, "member");
      const evicted: string[][] = [];
      const stop = onInvalidate((tags) => evicted.push(tags));
      const [before] = await db().select().from(books).where(eq(books.id, id));
      const renamed = await author.visitor.request("PATCH", `/api/books/${id}/`, { json: { name: "新书名", description: "新简介" } });
      stop();
      expect(renamed.statusCode).toBe(200);
      expect(renamed.json()).toMatchObject({ name: "新书名", description: "新简介" });
      expect(new Date(renamed.json().updated_at).getTime()).toBeGreaterThanOrEqual(before!.updatedAt.getTime());
      expect(evicted.flat()).toEqual(expect.arrayContaining([`book:${id}`, `circle:${circle.id}`, "home", "sitemap"]));
      expect((await stranger.visitor.request("PATCH", `/api/books/${id}/`, { json: { name: "抢" } })).statusCode).toBe(403);
      expect((await plainMember.visitor.request("PATCH", `/api/books/${id}/`, { json: { name: "抢" } })).statusCode).toBe(403);
      expect((await new Visitor(api.app).request("PATCH", `/api/books/${id}/`, { json: { name: "抢" } })).statusCode).toBe(401);
      expect((await master.visitor.request("PATCH", `/api/books/${id}/`, { json: { name: "版主改名" } })).json().name).toBe("版主改名");
      expect((await master.visitor.get(`/api/books/${id}/`)).json().can).toEqual({ edit: true, delete: true });
      expect(await eventsOf("book.updated", id)).toHaveLength(2);
    });

    it("moves Updating → Completed → Updating with an event each way; a completed book takes no new chapter (409) but its chapters stay editable", async () => {
      const { author, id, chapterIds } = await bookWithAuthor(1);
      const completed = await author.visitor.request("PATCH", `/api/books/${id}/`, { json: { state: "completed" } });
      expect(completed.json().state).toBe("completed");
      expect(await eventsOf("book.completed", id)).toHaveLength(1);
      const refused = await author.visitor.post(`/api/books/${id}/chapters/`, { title: "番外", content: "正文" }, english);
      expect(refused.statusCode).toBe(409);
      expect(refused.json()).toMatchObject({
        code: "book_completed",
        message: "This book is completed. Resume updating it to add chapters.",
      });
      expect(
        (await author.visitor.request("PATCH", `/api/books/${id}/chapters/${chapterIds[0]}/`, { json: { title: "修订后的第一章" } }))
          .statusCode,
      ).toBe(200);
      // Completing twice changes nothing and records nothing.
      await author.visitor.request("PATCH", `/api/books/${id}/`, { json: { state: "completed" } });
      expect(await eventsOf("book.completed", id)).toHaveLength(1);
      const resumed = await author.visitor.request("PATCH", `/api/books/${id}/`, { json: { state: "updating" } });
      expect(resumed.json().state).toBe("updating");
      expect(await eventsOf("book.resumed", id)).toHaveLength(1);
      expect((await author.visitor.post(`/api/books/${id}/chapters/`, { title: "番外", content: "正文" })).statusCode).toBe(201);
      const invalid = await author.visitor.request("PATCH", `/api/books/${id}/`, { json: { state: "finished" } });
      expect(invalid.statusCode).toBe(400);
    });

    it("deletes a book with its chapters for good (author or moderator), after which it is 404 and no longer counted", async () => {
      const { author, circle, id } = await bookWithAuthor(2);
      const stranger = await signedIn();
      expect((await stranger.visitor.request("DELETE", `/api/books/${id}/`)).statusCode).toBe(403);
      expect((await author.visitor.request("DELETE", `/api/books/${id}/`)).statusCode).toBe(204);
      expect((await author.visitor.get(`/api/books/${id}/`)).statusCode).toBe(404);
      expect(await db().select().from(bookChapters).where(eq(bookChapters.bookId, id))).toEqual([]);
      expect(await eventsOf("book.deleted", id)).toHaveLength(1);
      expect((await author.visitor.get(`/api/circles/${circle.id}/`)).json().counts.content.books).toBe(0);
      expect((await author.visitor.request("DELETE", `/api/books/${id}/`)).statusCode).toBe(404);
    });

    it("refuses to delete a category a book is filed under", async () => {
      const owner = await signedIn();
      const circle = await createCircle(db());
      await addMember(db(), circle.id, owner.user.id, "founder");
      const category = await addCategory(db(), circle.id);
      await owner.visitor.post(`/api/circles/${circle.id}/books/`, { name: "归类", categories: [category.id] });
      expect((await owner.visitor.request("DELETE", `/api/circles/${circle.id}/categories/${category.id}/`)).statusCode).toBe(409);
    });
  });

  describe("chapters", () => {
    it("appends numbered chapters rendered from Markdown (HTML, contents, length), and reads them with previous and next", async () => {
      const { author, id, chapterIds } = await bookWithAuthor(3);
      expect(await chapterOrder(author.visitor, id)).toEqual([
        [1, chapterIds[0]],
        [2, chapterIds[1]],
        [3, chapterIds[2]],
      ]);
      const book = (await new Visitor(api.app).get(`/api/books/${id}/`)).json();
      expect(book.chapter_count).toBe(3);
      expect(book.latest_chapter).toMatchObject({ id: chapterIds[2], number: 3, title: "第3章" });
      const middle = (await new Visitor(api.app).get(`/api/books/${id}/chapters/${chapterIds[1]}/`)).json();
      expect(middle.chapter).toMatchObject({ number: 2, title: "第2章", text_length: expect.any(Number) });
      expect(middle.chapter.html).toContain("<h1");
      expect(middle.chapter.toc).toEqual([expect.objectContaining({ depth: 1, text: "标题 2" })]);
      expect(middle.previous.id).toBe(chapterIds[0]);
      expect(middle.next.id).toBe(chapterIds[2]);
      expect(await eventsOf("book.chapter_added", id)).toHaveLength(3);
      const hostile = await author.visitor.post(`/api/books/${id}/chapters/`, {
        title: "脚本",
        content: '<script>alert(1)</script><img src=x onerror="alert(2)">\n\n[x](javascript:alert(3))',
      });
      const stored = (await author.visitor.get(`/api/books/${id}/chapters/${hostile.json().id}/`)).json().chapter.html as string;
      expect(stored).not.toMatch(/<script|onerror|href="javascript:/i);
      expect(stored).toContain("<a");
    });

    it("validates chapters: title and text required, localized; a chapter of another book is 404", async () => {
      const { author, id } = await bookWithAuthor(1);
      const other = await bookWithAuthor(1);
      const empty = await author.visitor.post(`/api/books/${id}/chapters/`, { title: " ", content: "  " }, english);
      expect(empty.statusCode).toBe(400);
      expect(Object.keys(empty.json().fields).sort()).toEqual(["content", "title"]);
      expect(empty.json().fields.title).toBe("Please enter the chapter's title.");
      expect(
        (await author.visitor.request("PATCH", `/api/books/${id}/chapters/${other.chapterIds[0]}/`, { json: { title: "偷" } })).statusCode,
      ).toBe(404);
      expect((await author.visitor.get(`/api/books/${id}/chapters/${other.chapterIds[0]}/`)).statusCode).toBe(404);
      expect((await other.author.visitor.post(`/api/books/${id}/chapters/`, { title: "别人的", content: "正文" })).statusCode).toBe(403);
    });

    it("reorders by number: the moved chapter takes the place, the others shift; a number past the end is a 400", async () => {
      const { author, id, chapterIds } = await bookWithAuthor(4);
      const [a, b, c, d] = chapterIds as [number, number, number, number];
      const moved = await author.visitor.request("PATCH", `/api/books/${id}/chapters/${d}/`, { json: { number: 1 } });
      expect(moved.statusCode).toBe(200);
      expect(moved.json().number).toBe(1);
      expect(await chapterOrder(author.visitor, id)).toEqual([
        [1, d],
        [2, a],
        [3, b],
        [4, c],
      ]);
      await author.visitor.request("PATCH", `/api/books/${id}/chapters/${d}/`, { json: { number: 3 } });
      expect((await chapterOrder(author.visitor, id)).map(([, chapter]) => chapter)).toEqual([a, b, d, c]);
      const past = await author.visitor.request("PATCH", `/api/books/${id}/chapters/${a}/`, { json: { number: 5 } });
      expect(past.statusCode).toBe(400);
      expect((await author.visitor.request("PATCH", `/api/books/${id}/chapters/${a}/`, { json: { number: 0 } })).statusCode).toBe(400);
      expect((await chapterOrder(author.visitor, id)).map(([, chapter]) => chapter)).toEqual([a, b, d, c]);
    });

    it("renumbers on delete: the chapters after the deleted one move up, with an event", async () => {
      const { author, id, chapterIds } = await bookWithAuthor(3);
      const stranger = await signedIn();
      expect((await stranger.visitor.request("DELETE", `/api/books/${id}/chapters/${chapterIds[0]}/`)).statusCode).toBe(403);
      expect((await author.visitor.request("DELETE", `/api/books/${id}/chapters/${chapterIds[0]}/`)).statusCode).toBe(204);
      expect(await chapterOrder(author.visitor, id)).toEqual([
        [1, chapterIds[1]],
        [2, chapterIds[2]],
      ]);
      expect(await eventsOf("book.chapter_deleted", id)).toHaveLength(1);
      expect((await author.visitor.get(`/api/books/${id}/chapters/${chapterIds[0]}/`)).statusCode).toBe(404);
      // Appending continues after the last number.
      expect((await author.visitor.post(`/api/books/${id}/chapters/`, { title: "新章", content: "正文" })).json().number).toBe(3);
    });
  });

  describe("views", () => {
    it("counts a view once per visitor per Asia/Shanghai day, signed in or not", async () => {
      const { author, id } = await bookWithAuthor();
      const reader = new Visitor(api.app);
      const pixel = await reader.get(`/api/books/${id}/view.gif`);
      expect(pixel.statusCode).toBe(200);
      expect(pixel.headers["content-type"]).toBe("image/gif");
      await reader.get(`/api/books/${id}/view.gif`);
      await author.visitor.get(`/api/books/${id}/view.gif`);
      await author.visitor.get(`/api/books/${id}/view.gif`);
      expect((await reader.get(`/api/books/${id}/`)).json().views).toBe(2);
      await new Visitor(api.app).get(`/api/books/${id}/view.gif`);
      expect((await reader.get(`/api/books/${id}/`)).json().views).toBe(3);
      now = new Date("2026-03-10T16:30:00Z"); // 00:30 on the 11th in Shanghai
      await reader.get(`/api/books/${id}/view.gif`);
      expect((await reader.get(`/api/books/${id}/`)).json().views).toBe(4);
    });

    it("counts no view of a book the visitor may not read", async () => {
      const member = await signedIn();
      const hidden = await createCircle(db(), { visibility: "members" });
      await addMember(db(), hidden.id, member.user.id);
      const id = (await member.visitor.post(`/api/circles/${hidden.id}/books/`, { name: "秘密" })).json().id;
      // The beacon answers its pixel either way: it never tells whether a book exists.
      expect((await new Visitor(api.app).get(`/api/books/${id}/view.gif`)).statusCode).toBe(200);
      const [row] = await db().select().from(books).where(eq(books.id, id));
      expect(row!.views).toBe(0);
    });
  });
});
