import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApi, Visitor, type TestApi } from "../../tests/support/api.ts";
import { createBook, createSignedInUser, createUser, createWriting } from "../../tests/support/factories.ts";
import { databaseKinds } from "../../tests/support/database.ts";

/** The reading page's action bar as plain HTML forms (no JavaScript), in this process. */
describe.each(databaseKinds)("reaction pages on %s", (kind) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi(kind, { pages: true });
  });
  afterAll(() => api.close());
  const db = () => api.database.db;

  const likeButton = (html: string) => /<button[^>]*data-testid="like"[^>]*>/.exec(html)?.[0] ?? "";
  const likeCount = (html: string) => Number(/data-testid="like"[^>]*>.*?<span class="action-count">(\d+)<\/span>/s.exec(html)?.[1]);

  it("likes without JavaScript and comes back to the page, which shows the like pressed and counted, in both languages", async () => {
    const author = await createUser(db());
    const writing = await createWriting(db(), author, { title: "无脚本点赞" });
    const { visitor } = await createSignedInUser(api.app, db());
    const page = `/circles/1/writing/${writing.id}`;
    const before = (await visitor.get(page)).body;
    expect(likeButton(before)).toContain('aria-pressed="false"');
    expect(likeButton(before)).toContain('value="like"');
    expect(likeCount(before)).toBe(0);

    const posted = await visitor.postForm(`/en/subjects/writing/${writing.id}/reaction`, {
      csrftoken: await visitor.csrfToken(),
      next: page,
      reaction: "like",
    });
    expect(posted.statusCode).toBe(303);
    expect(posted.headers.location).toBe(`/en${page}#actions`);

    const after = (await visitor.get(`/en${page}`)).body;
    expect(likeButton(after)).toContain('aria-pressed="true"');
    // Pressing it again takes the like back.
    expect(likeButton(after)).toContain('value="none"');
    expect(likeCount(after)).toBe(1);
    expect(after).toContain(">Like");
    expect((await visitor.get(page)).body).toContain("赞同");

    // A visitor's cached page shows the new count too.
    expect(likeCount((await new Visitor(api.app).get(page)).body)).toBe(1);

    await visitor.postForm(`/subjects/writing/${writing.id}/reaction`, {
      csrftoken: await visitor.csrfToken(),
      next: page,
      reaction: "none",
    });
    expect(likeCount((await visitor.get(page)).body)).toBe(0);
  });

  it("sends a visitor to sign in and back to the page, refuses a forged token, and never leaves the site", async () => {
    const writing = await createWriting(db(), await createUser(db()));
    const page = `/circles/1/writing/${writing.id}`;
    const visitor = new Visitor(api.app);
    const html = (await visitor.get(page)).body;
    expect(html).toContain(`/login?next=${encodeURIComponent(page)}`);
    const posted = await visitor.postForm(`/subjects/writing/${writing.id}/reaction`, { next: page, reaction: "like" });
    expect(posted.statusCode).toBe(303);
    expect(posted.headers.location).toBe(`/login?next=${encodeURIComponent(page)}`);

    const { visitor: reader } = await createSignedInUser(api.app, db());
    const forged = await reader.postForm(`/subjects/writing/${writing.id}/reaction`, { csrftoken: "forged", next: page, reaction: "like" });
    expect(forged.statusCode).toBe(403);
    const away = await reader.postForm(`/subjects/writing/${writing.id}/reaction`, {
      csrftoken: await reader.csrfToken(),
      next: "//evil.example/x",
      reaction: "like",
    });
    expect(away.statusCode).toBe(303);
    expect(away.headers.location).toBe("/#actions");
    const unknown = await reader.postForm(`/subjects/writing/999999/reaction`, {
      csrftoken: await reader.csrfToken(),
      next: page,
      reaction: "like",
    });
    expect(unknown.statusCode).toBe(404);
  });
});

describe.each(databaseKinds)("the action bar on books and chapters on %s", (kind) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi(kind, { pages: true });
  });
  afterAll(() => api.close());
  const db = () => api.database.db;
  const pressed = (html: string, testId: string) => new RegExp(`<button[^>]*aria-pressed="true"[^>]*data-testid="${testId}"`).test(html);

  it("likes a book and favourites one of its chapters without JavaScript, each counted on its own page", async () => {
    const author = await createUser(db());
    const book = await createBook(db(), author, { name: "按钮之书", chapters: ["第一章"] });
    const chapterId = book.chapters[0]!.id;
    const { visitor } = await createSignedInUser(api.app, db());
    const token = await visitor.csrfToken();
    const bookPage = `/circles/1/books/${book.id}`;
    const chapterPage = `${bookPage}/chapters/${chapterId}`;
    expect(
      (await visitor.postForm(`/subjects/book/${book.id}/reaction`, { csrftoken: token, next: bookPage, reaction: "like" })).statusCode,
    ).toBe(303);
    expect(
      (await visitor.postForm(`/subjects/chapter/${chapterId}/favorite`, { csrftoken: token, next: chapterPage, favorite: "on" }))
        .statusCode,
    ).toBe(303);
    const bookHtml = (await visitor.get(bookPage)).body;
    expect(pressed(bookHtml, "like")).toBe(true);
    expect(pressed(bookHtml, "favorite")).toBe(false);
    const chapterHtml = (await visitor.get(chapterPage)).body;
    expect(pressed(chapterHtml, "favorite")).toBe(true);
    expect(pressed(chapterHtml, "like")).toBe(false);
    // A visitor's (cached) copies show the counts and ask to sign in.
    const visitorHtml = (await new Visitor(api.app).get(`/en${chapterPage}`)).body;
    expect(visitorHtml).toContain(`/en/login?next=${encodeURIComponent(chapterPage)}`);
    expect(visitorHtml).toMatch(/data-testid="favorite"[^>]*>.*?Favourite.*?action-count">1</s);
  });
});
