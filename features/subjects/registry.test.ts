import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq, sql } from "drizzle-orm";
import { createTestApi, type TestApi } from "../../tests/support/api.ts";
import { addCategory, createCircle, createComment, createEntry, createSignedInUser } from "../../tests/support/factories.ts";
import { databaseKinds } from "../../tests/support/database.ts";
import { bookChapters, comments } from "../../server/db/schema/index.ts";
import { inTransaction } from "../../server/lib/transactions.ts";
import { AppError } from "../../common/app-error.ts";
import { countCircleContent } from "../circles/counts.ts";
import { subjectAuthorFunctionBody, subjectAuthorFunctionSql } from "./author-sql.ts";
import { categoryInUse } from "../circles/categories.ts";
import { deleteSubjectDependents, loadSubject, registeredKinds, type SubjectKind } from "./registry.ts";
import { subjectTypes } from "./types.ts";

describe("the subject registry", () => {
  it("has every kind registered once, each loading and tagging itself", () => {
    expect(
      registeredKinds()
        .map((kind) => kind.type)
        .sort(),
    ).toEqual([...subjectTypes].sort());
  });

  /** One line per member a kind declares, with what the features read from it (tabs, events, kinds, interactions). */
  function declaredMembers(kind: SubjectKind): string[] {
    return (Object.keys(kind) as (keyof SubjectKind)[])
      .filter((member) => member !== "type" && kind[member] !== undefined && kind[member] !== false)
      .sort()
      .map((member) => {
        if (member === "feed") return `feed: ${kind.feed!.tabs.join(" ")}`;
        if (member === "circleContent") return `circleContent: ${kind.circleContent!.counts.join(" ")}`;
        if (member === "circleTabs") return `circleTabs: ${kind.circleTabs!.map((tab) => `${tab.name} ${tab.order}`).join(", ")}`;
        if (member === "sitemap") return `sitemap: ${kind.sitemap!.section}`;
        if (member === "activity") return `activity: ${kind.activity!.verb}`;
        if (member === "hot") return `hot: rescore${kind.hot!.recompute ? " recompute" : ""}`;
        if (member === "creatorDesk") return `creatorDesk: ${kind.creatorDesk!.kinds.join(" ")}`;
        if (member === "interactions")
          return `interactions: ${Object.entries(kind.interactions!)
            .filter(([, value]) => value !== undefined && value !== false)
            .map(([name]) => name)
            .join(" ")}`;
        if (member === "search") {
          const { reindex, parent, teachesWords, tabOrder, suggested, inSiteFeeds } = kind.search!;
          const verbs = reindex.flatMap((entry) => entry.verbs).join(" ");
          const flags = [
            `tab ${tabOrder}`,
            ...(parent ? [`parent ${parent}`] : []),
            ...(teachesWords ? ["teaches words"] : []),
            ...(suggested ? ["suggested"] : []),
            ...(inSiteFeeds ? ["in site feeds"] : []),
          ];
          return `search: ${verbs} (${flags.join(", ")})`;
        }
        return member;
      });
  }

  it("lists every registered kind with every member it declares, so a missing member fails by name", () => {
    // Adding a kind or a member adds its line here (docs/ARCHITECTURE.md, "Adding a kind").
    expect(Object.fromEntries(registeredKinds().map((kind) => [kind.type, declaredMembers(kind)]))).toMatchInlineSnapshot(`
      {
        "answer": [
          "authorSql",
          "authoredBy",
          "citesEntries",
          "commentable",
          "feed: latest all follow",
          "hot: rescore",
          "interactions: reactions favorites shares reports tips",
          "load",
          "remove",
          "search: answer.created answer.edited (tab 5, parent question)",
          "setHidden",
        ],
        "book": [
          "activity: book.created",
          "authorSql",
          "authoredBy",
          "children",
          "circleContent: books",
          "circleTabs: books 20",
          "commentable",
          "creatorDesk: book",
          "feed: latest hot all follow",
          "hot: rescore recompute",
          "interactions: reactions favorites shares reports tips pins",
          "load",
          "referencesAttachment",
          "remove",
          "search: book.created book.updated book.completed book.resumed (tab 2, suggested, in site feeds)",
          "setHidden",
          "sitemap: books",
          "usesCategory",
          "views",
        ],
        "chapter": [
          "authorSql",
          "authoredBy",
          "commentable",
          "feed: latest all follow",
          "interactions: reactions favorites shares reports",
          "load",
          "remove",
          "search: book.chapter_added book.chapter_updated (tab 3, parent book)",
          "setHidden",
        ],
        "circle": [
          "interactions: reactions favorites shares",
          "load",
          "referencesAttachment",
          "search: circle.created circle.updated (tab 7, teaches words, suggested)",
        ],
        "comment": [
          "authorSql",
          "interactions: reactions favorites shares reports",
          "load",
          "remove",
          "setHidden",
        ],
        "entry": [
          "activity: entry.created",
          "authorSql",
          "authoredBy",
          "circleContent: entries",
          "circleTabs: encyclopedia 50",
          "citesEntries",
          "commentable",
          "interactions: reactions favorites shares reports",
          "load",
          "search: entry.created entry.edited (tab 6, teaches words, suggested)",
          "setHidden",
          "sitemap: entries",
          "views",
        ],
        "question": [
          "authorSql",
          "authoredBy",
          "children",
          "circleContent: questions",
          "circleTabs: questions 40",
          "citesEntries",
          "commentable",
          "feed: latest hot all follow",
          "hot: rescore recompute",
          "interactions: reactions favorites shares reports",
          "load",
          "remove",
          "search: question.asked question.edited (tab 4, suggested, in site feeds)",
          "setHidden",
          "sitemap: questions",
          "usesCategory",
          "views",
        ],
        "user": [
          "authorSql",
          "interactions: reactions favorites shares reports",
          "load",
          "referencesAttachment",
          "search: user.registered user.profile_updated (tab 8, suggested)",
          "setHidden",
        ],
        "writing": [
          "activity: writing.published",
          "authorSql",
          "authoredBy",
          "circleContent: articles posts",
          "circleTabs: articles 10, posts 30",
          "citesEntries",
          "commentable",
          "creatorDesk: article serial post",
          "feed: latest hot all follow",
          "hot: rescore recompute",
          "interactions: reactions favorites shares reports tips tipsSwitchedOn pins",
          "load",
          "referencesAttachment",
          "remove",
          "search: writing.published writing.edited (tab 1, suggested, in site feeds)",
          "setHidden",
          "sitemap: writings",
          "usesCategory",
          "views",
        ],
      }
    `);
  });

  it("has every commentable kind name its author's subjects, so comments on them reach the creator's desk", () => {
    for (const kind of registeredKinds().filter((kind) => kind.commentable))
      expect(kind.authoredBy, `${kind.type}.authoredBy`).toBeDefined();
  });

  it("lets only kinds that moderation can hide accept reports", () => {
    for (const kind of registeredKinds().filter((kind) => kind.interactions?.reports))
      expect(kind.setHidden, `${kind.type}.setHidden`).toBeDefined();
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

  it("has the database's subject_author_id generated from the registrations, answering each kind's author", async () => {
    const [row] = (
      (await db().execute(sql`select prosrc from pg_proc where proname = 'subject_author_id'`)) as unknown as { rows: { prosrc: string }[] }
    ).rows;
    // A kind that gained or lost `authorSql` needs a migration with this statement.
    expect(row?.prosrc, `the migration to add:\n${subjectAuthorFunctionSql()}`).toBe(subjectAuthorFunctionBody());
    const { user, visitor } = await createSignedInUser(api.app, db());
    const created = await visitor.post("/api/circles/1/writings/", { title: "作者", content: "正文\n" });
    expect(created.statusCode, created.body).toBe(201);
    const writingId = (created.json() as { id: number }).id;
    const comment = await createComment(db(), writingId, user, { body: "评论" });
    const authorOf = async (type: string, id: number) =>
      ((await db().execute(sql`select subject_author_id(${type}, ${id}) as author`)) as unknown as { rows: { author: number | null }[] })
        .rows[0]?.author ?? null;
    for (const [type, id] of [
      ["writing", writingId],
      ["comment", comment.id],
      ["user", user.id],
    ] as const)
      expect(await authorOf(type, id), type).toBe((await loadSubject(db(), null, type, id)).authorId);
    expect(await authorOf("circle", 1)).toBeNull();
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
