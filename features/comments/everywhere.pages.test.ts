import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { createTestApi, Visitor, type TestApi } from "../../tests/support/api.ts";
import { createBook, createEntry, createSignedInUser, createUser } from "../../tests/support/factories.ts";
import { databaseKinds } from "../../tests/support/database.ts";
import { comments } from "../../server/db/schema/index.ts";

/**
 * The comments section on books, chapters and entries, in both languages, as a browser without
 * JavaScript uses it: read as a visitor, comment, like a comment, sort, edit, mention.
 */
describe.each(databaseKinds)("comments on book, chapter and entry pages on %s", (kind) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi(kind, { pages: true });
  });
  afterAll(() => api.close());
  const db = () => api.database.db;

  const texts = {
    zh: {
      prefix: "",
      title: (count: number) => `评论（${count}）`,
      login: "登录后评论",
      notice: "评论成功",
      edited: "编辑于",
      saved: "修改成功",
    },
    en: {
      prefix: "/en",
      title: (count: number) => `Comments (${count})`,
      login: "Log in to comment",
      notice: "Commented.",
      edited: "edited",
      saved: "Saved.",
    },
  } as const;

  const pages = async () => {
    const author = await createSignedInUser(api.app, db());
    const book = await createBook(db(), author.user, { chapters: ["第一章"] });
    const entry = await createEntry(db(), 1, author.user);
    return [
      { type: "book", id: book.id, path: `/circles/1/books/${book.id}` },
      { type: "chapter", id: book.chapters[0]!.id, path: `/circles/1/books/${book.id}/chapters/${book.chapters[0]!.id}` },
      { type: "entry", id: entry.id, path: `/circles/1/encyclopedia/${entry.id}` },
    ];
  };

  for (const language of ["zh", "en"] as const) {
    it(`shows, takes, likes, sorts and edits comments without JavaScript (${language})`, async () => {
      const text = texts[language];
      const reader = await createSignedInUser(api.app, db());
      const friend = await createUser(db());
      for (const page of await pages()) {
        const path = `${text.prefix}${page.path}`;
        const visitor = new Visitor(api.app);
        const empty = await visitor.get(path);
        expect(empty.statusCode, `${page.type} ${empty.body.slice(0, 200)}`).toBe(200);
        expect(empty.body).toContain(text.title(0));
        expect(empty.body).toContain(text.login);

        const csrftoken = await reader.visitor.csrfToken();
        const posted = await reader.visitor.postForm(path, { csrftoken, intent: "comment", body: `第一条 @${friend.username}` });
        expect(posted.statusCode, posted.body.slice(0, 300)).toBe(302);
        const location = posted.headers.location as string;
        expect(location).toMatch(new RegExp(`^${path}\\?notice=commented#comment-\\d+$`));
        const commentId = Number(location.split("#comment-")[1]);
        const [row] = await db().select().from(comments).where(eq(comments.id, commentId));
        expect([row!.subjectType, row!.subjectId]).toEqual([page.type, page.id]);

        const shown = await reader.visitor.get(location.split("#")[0]!);
        expect(shown.body).toContain(text.title(1));
        expect(shown.body).toContain(text.notice);
        expect(shown.body).toContain(`id="comment-${commentId}"`);
        // The mention links to the profile; the like toggle posts to the comment's reaction route.
        expect(shown.body).toContain(`href="${text.prefix}/profile/${friend.username}"`);
        expect(shown.body).toContain(`action="${text.prefix}/subjects/comment/${commentId}/reaction"`);

        // A like without JavaScript comes back to the comment, counted.
        const liked = await reader.visitor.postForm(`${text.prefix}/subjects/comment/${commentId}/reaction`, {
          csrftoken,
          reaction: "like",
          next: page.path,
        });
        expect(liked.statusCode).toBe(303);
        expect(liked.headers.location).toBe(`${path}#comment-${commentId}`);
        const afterLike = await reader.visitor.get(path);
        expect(afterLike.body).toMatch(/aria-pressed="true"[^>]*data-testid="comment-like"/);
        expect(afterLike.body).toMatch(/data-testid="comment-like-count">1</);

        // A second comment, then the orders: oldest first puts the first comment first.
        const second = await reader.visitor.postForm(path, { csrftoken, intent: "comment", body: "第二条" });
        const secondId = Number((second.headers.location as string).split("#comment-")[1]);
        const order = (body: string) => [...body.matchAll(/data-comment-id="(\d+)"/g)].map((match) => Number(match[1]));
        expect(order((await visitor.get(path)).body)).toEqual([secondId, commentId]);
        const oldest = await visitor.get(`${path}?comment_sort=oldest`);
        expect(order(oldest.body)).toEqual([commentId, secondId]);
        expect(oldest.body).toMatch(/aria-current="true"[^>]*data-testid="comment-sort-oldest"/);
        expect(order((await visitor.get(`${path}?comment_sort=liked`)).body)).toEqual([commentId, secondId]);

        // Editing within the window, as a plain form: shown as edited.
        const edited = await reader.visitor.postForm(`${path}?comment_sort=oldest`, {
          csrftoken,
          intent: "edit-comment",
          comment_id: String(commentId),
          body: "改过的第一条",
        });
        expect(edited.statusCode).toBe(302);
        expect(edited.headers.location).toBe(`${path}?comment_sort=oldest&notice=edited#comment-${commentId}`);
        const afterEdit = await reader.visitor.get(`${path}?comment_sort=oldest&notice=edited`);
        expect(afterEdit.body).toContain("改过的第一条");
        expect(afterEdit.body).toContain(text.edited);
        expect(afterEdit.body).toContain(text.saved);
        // Someone else's edit is refused on the form, nothing changes.
        const stranger = await createSignedInUser(api.app, db());
        const refused = await stranger.visitor.postForm(path, {
          csrftoken: await stranger.visitor.csrfToken(),
          intent: "edit-comment",
          comment_id: String(commentId),
          body: "篡改",
        });
        expect(refused.statusCode).toBe(403);
        const [kept] = await db()
          .select({ body: comments.body })
          .from(comments)
          .where(and(eq(comments.id, commentId), eq(comments.subjectType, page.type)));
        expect(kept!.body).toBe("改过的第一条");
      }
    });
  }
});
