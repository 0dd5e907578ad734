import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq, sql } from "drizzle-orm";
import { createTestApi, type TestApi } from "../../tests/support/api.ts";
import { addCategory, createCircle, createComment, createEntry, createSignedInUser } from "../../tests/support/factories.ts";
import { databaseKinds } from "../../tests/support/database.ts";
import { bookChapters, comments } from "../../server/db/schema/index.ts";
import { inTransaction } from "../../server/lib/transactions.ts";
import { AppError } from "../../common/app-error.ts";
import { countCircleContent } from "../circles/counts.ts";
import { categoryInUse } from "../circles/categories.ts";
import { deleteSubjectDependents, loadSubject, registeredKinds } from "./registry.ts";
import { subjectTypes } from "./types.ts";

describe("the subject registry", () => {
  it("has every kind registered once, each loading and tagging itself", () => {
    expect(
      registeredKinds()
        .map((kind) => kind.type)
        .sort(),
    ).toEqual([...subjectTypes].sort());
  });
});

describe.each(databaseKinds)("subjects through the registry on %s", (kind) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi(kind);
  });
  afterAll(() => api.close());
  const db = () => api.database.db;
  const code = (promise: Promise<unknown>) =>
    promise.then(
      () => "loaded",
      (error: unknown) => (error instanceof AppError ? error.code : String(error)),
    );

  it("loads each kind for a viewer with its title, path, author and tags; unknown types and ids are not found", async () => {
    const { user, visitor } = await createSignedInUser(api.app, db());
    const created = await visitor.post("/api/circles/1/writings/", { title: "登记处", content: "正文\n" });
    expect(created.statusCode, created.body).toBe(201);
    const writingId = (created.json() as { id: number }).id;

    const writing = await loadSubject(db(), null, "writing", writingId);
    expect(writing).toMatchObject({
      type: "writing",
      id: writingId,
      authorId: user.id,
      title: "登记处",
      path: `/circles/1/writing/${writingId}`,
    });
    expect(writing.tags).toEqual({
      content: [`writing:${writingId}`],
      counts: [`writing:${writingId}:counts`],
      comments: [`writing:${writingId}:comments`],
    });
    const comment = await createComment(db(), writingId, user, { body: "一条评论" });
    expect(await loadSubject(db(), null, "comment", comment.id)).toMatchObject({
      authorId: user.id,
      title: "一条评论",
      path: `/circles/1/writing/${writingId}#comment-${comment.id}`,
      tags: { comments: [`writing:${writingId}:comments`] },
    });
    expect(await loadSubject(db(), null, "user", user.id)).toMatchObject({ title: user.nickname, path: `/profile/${user.username}` });
    expect(await loadSubject(db(), null, "circle", 1)).toMatchObject({ path: "/circles/1", access: { circle: { id: 1 } } });
    expect(await code(loadSubject(db(), null, "writing", 999_999))).toBe("not_found");
    expect(await code(loadSubject(db(), null, "spaceship", 1))).toBe("not_found");
  });

  it("hides a hidden circle's content from outsiders exactly like an unknown id", async () => {
    const { user } = await createSignedInUser(api.app, db());
    const hidden = await createCircle(db(), { visibility: "members" });
    const entry = await createEntry(db(), hidden.id, user);
    expect(await code(loadSubject(db(), null, "entry", entry.id))).toBe("not_found");
    expect(await code(loadSubject(db(), null, "circle", hidden.id))).toBe("not_found");
  });

  it("sums every kind's share of a circle's content counts, and finds categories in use by any kind", async () => {
    const { visitor } = await createSignedInUser(api.app, db());
    const circle = await createCircle(db());
    await db().execute(sql`insert into circle_members (circle_id, user_id, role) select ${circle.id}, id, 'member' from users`);
    const category = await addCategory(db(), circle.id, { name: "分类" });
    for (const body of [
      { title: "文章", content: "正文\n" },
      { title: "帖子", content: "正文\n", type: "post" },
    ]) {
      const response = await visitor.post(`/api/circles/${circle.id}/writings/`, body);
      expect(response.statusCode, response.body).toBe(201);
    }
    const book = await visitor.post(`/api/circles/${circle.id}/books/`, { name: "书", categories: [category.id] });
    expect(book.statusCode, book.body).toBe(201);
    expect((await countCircleContent(db(), [circle.id])).get(circle.id)).toEqual({
      articles: 1,
      posts: 1,
      books: 1,
      questions: 0,
      entries: 0,
    });
    expect(await categoryInUse(db(), category.id)).toBe(true);
  });

  it("deletes what hangs on a subject and on its children (a book's chapters) in the deleting transaction", async () => {
    const { visitor } = await createSignedInUser(api.app, db());
    const book = await visitor.post("/api/circles/1/books/", { name: "级联" });
    expect(book.statusCode, book.body).toBe(201);
    const bookId = (book.json() as { id: number }).id;
    const chapter = await visitor.post(`/api/books/${bookId}/chapters/`, { title: "第一章", content: "正文\n" });
    expect(chapter.statusCode, chapter.body).toBe(201);
    const [row] = await db().select({ id: bookChapters.id }).from(bookChapters).where(eq(bookChapters.bookId, bookId));
    const comment = await visitor.post(`/api/subjects/chapter/${row!.id}/comments/`, { body: "章评" });
    expect(comment.statusCode, comment.body).toBe(201);
    await inTransaction({ db: db() }, (tx) => deleteSubjectDependents(tx, "book", [bookId]));
    expect(
      await db()
        .select()
        .from(comments)
        .where(and(sql`${comments.subjectType} = 'chapter'`, eq(comments.subjectId, row!.id))),
    ).toEqual([]);
  });
});
