import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApi, Visitor, type TestApi } from "../../tests/support/api.ts";
import { createSignedInUser, createUser, createWriting } from "../../tests/support/factories.ts";
import { databaseKinds } from "../../tests/support/database.ts";

/** Favouriting from the action bar and managing /account/store as plain HTML forms (no JavaScript), in this process. */
describe.each(databaseKinds)("favourites pages on %s", (kind) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi(kind, { pages: true });
  });
  afterAll(() => api.close());
  const db = () => api.database.db;
  const favoriteButton = (html: string) => /<button[^>]*data-testid="favorite"[^>]*>.*?<\/button>/s.exec(html)?.[0] ?? "";
  const items = (html: string) => [...html.matchAll(/data-testid="favorite-item"/g)].length;

  it("favourites from the reading page, then makes a folder, moves, notes, searches and removes on /account/store", async () => {
    const author = await createUser(db());
    const writing = await createWriting(db(), author, { title: "收藏页面测试" });
    const { visitor } = await createSignedInUser(api.app, db());
    const page = `/circles/1/writing/${writing.id}`;
    const token = await visitor.csrfToken();
    expect(favoriteButton((await visitor.get(page)).body)).toContain('value="on"');

    const kept = await visitor.postForm(`/subjects/writing/${writing.id}/favorite`, { csrftoken: token, next: page, favorite: "on" });
    expect(kept.statusCode).toBe(303);
    expect(kept.headers.location).toBe(`${page}#actions`);
    const reading = (await visitor.get(page)).body;
    expect(favoriteButton(reading)).toContain('aria-pressed="true"');
    expect(favoriteButton(reading)).toContain("已收藏");
    expect(favoriteButton(reading)).toMatch(/action-count">1</);

    const store = async (query = "") => (await visitor.get(`/account/store${query}`)).body;
    let html = await store();
    expect(items(html)).toBe(1);
    expect(html).toContain("收藏页面测试");
    expect(html).toContain("默认收藏夹");

    const made = await visitor.postForm("/account/store", { csrftoken: token, intent: "create-folder", name: "数学笔记" });
    expect(made.statusCode).toBe(303);
    const folderId = Number(/folder=(\d+)/.exec(made.headers.location as string)?.[1]);
    expect(folderId).toBeGreaterThan(0);
    expect(items(await store(`?folder=${folderId}`))).toBe(0);

    await visitor.postForm("/account/store", {
      csrftoken: token,
      intent: "move",
      type: "writing",
      id: String(writing.id),
      to: String(folderId),
    });
    await visitor.postForm("/account/store", {
      csrftoken: token,
      intent: "note",
      type: "writing",
      id: String(writing.id),
      note: "周末重读",
    });
    html = await store(`?folder=${folderId}`);
    expect(items(html)).toBe(1);
    expect(html).toContain('value="周末重读"');
    expect(items(await store(`?q=${encodeURIComponent("重读")}`))).toBe(1);
    expect(items(await store(`?q=${encodeURIComponent("没有这个")}`))).toBe(0);

    // Deleting the folder asks first, then moves its favourite to the default folder.
    const asked = await visitor.postForm(`/account/store?folder=${folderId}`, {
      csrftoken: token,
      intent: "delete-folder",
      folder: String(folderId),
    });
    expect(asked.statusCode).toBe(200);
    expect(asked.body).toContain("其中的 1 条收藏会移到默认收藏夹");
    await visitor.postForm("/account/store", { csrftoken: token, intent: "delete-folder", folder: String(folderId), confirmed: "1" });
    html = await store();
    expect(html).not.toContain("数学笔记");
    expect(items(html)).toBe(1);

    await visitor.postForm("/account/store", { csrftoken: token, intent: "remove", type: "writing", id: String(writing.id) });
    expect(items(await store())).toBe(0);
    expect(favoriteButton((await visitor.get(page)).body)).toMatch(/action-count">0</);
  });

  it("answers a bad folder name with a localized message, in English too, and sends visitors to sign in", async () => {
    const { visitor } = await createSignedInUser(api.app, db());
    const answer = await visitor.postForm("/en/account/store", {
      csrftoken: await visitor.csrfToken(),
      intent: "create-folder",
      name: "   ",
    });
    // The form's refusal, on the page, with the status of the API's (400 validation_failed).
    expect(answer.statusCode).toBe(400);
    expect(answer.body).toContain("Please name the folder.");
    const stranger = new Visitor(api.app);
    const response = await stranger.get("/en/account/store");
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe(`/en/login?next=${encodeURIComponent("/account/store")}`);
  });
  it("shows a writing hidden by moderation as hidden on /account/store, without its title", async () => {
    const author = await createUser(db());
    const writing = await createWriting(db(), author, { title: "隐藏后的收藏标题" });
    const { visitor } = await createSignedInUser(api.app, db());
    const { visitor: reporter } = await createSignedInUser(api.app, db());
    const { visitor: moderator } = await createSignedInUser(api.app, db(), { siteRole: "moderator" });
    await visitor.request("PUT", `/api/subjects/writing/${writing.id}/favorite/`, { json: {} });
    const report = await reporter.post(`/api/subjects/writing/${writing.id}/reports/`, { reason: "spam" });
    await moderator.post(`/api/moderation/cases/${(report.json() as { case_id: number }).case_id}/resolve/`, { action: "hide" });
    const html = (await visitor.get("/account/store")).body;
    expect(html).toContain('data-testid="favorite-hidden"');
    expect(html).toContain("该内容已被管理员隐藏");
    expect(html).not.toContain("隐藏后的收藏标题");
    expect((await visitor.get("/en/account/store")).body).toContain("Hidden by moderators");
  });
});
