import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApi, Visitor, type TestApi } from "../../tests/support/api.ts";
import { createSignedInUser, createUser, createWriting } from "../../tests/support/factories.ts";
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
