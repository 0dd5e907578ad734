import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApi, type TestApi } from "../../tests/support/api.ts";
import { createSignedInUser, createWriting } from "../../tests/support/factories.ts";
import { databaseKinds } from "../../tests/support/database.ts";

/** The message centre's lists as plain HTML (no JavaScript): lines, opening one, deleting one, in both languages. */
describe.each(databaseKinds)("message centre pages on %s", (kind) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi(kind, { pages: true });
  });
  afterAll(() => api.close());
  const db = () => api.database.db;
  const lines = (html: string) => [...html.matchAll(/data-testid="notification"/g)].length;

  it("lists likes grouped and comments, opens a line to its target marking it read, deletes a line", async () => {
    const { user: author, visitor: authorVisitor } = await createSignedInUser(api.app, db());
    const writing = await createWriting(db(), author, { title: "消息中心测试" });
    const fans = await Promise.all([1, 2].map(() => createSignedInUser(api.app, db())));
    for (const fan of fans) {
      await fan.visitor.request("PUT", `/api/subjects/writing/${writing.id}/reaction/`, { json: { reaction: "like" } });
    }
    await fans[0]!.visitor.post(`/api/writings/${writing.id}/comments/`, { body: "很有启发" });

    const likes = (await authorVisitor.get("/messages/like_attention")).body;
    expect(lines(likes)).toBe(1);
    expect(likes).toContain(fans[1]!.user.nickname);
    expect(likes).toContain("等 1 人");
    expect(likes).toContain("消息中心测试");
    const english = (await authorVisitor.get("/en/messages/like_attention")).body;
    expect(english).toContain("and 1 other");
    expect(english).toContain("liked");

    const comments = (await authorVisitor.get("/messages/reply_comment")).body;
    expect(lines(comments)).toBe(1);
    expect(comments).toContain("评论了");
    expect(comments).toMatch(/class="notification unread"/);
    const id = /href="\/messages\/open\/(\d+)"/.exec(comments)![1]!;

    const opened = await authorVisitor.get(`/messages/open/${id}`);
    expect(opened.statusCode).toBe(303);
    expect(opened.headers.location).toContain(`/writing/${writing.id}#comment-`);
    expect((await authorVisitor.get("/api/Users/get_unread")).json().unread_comment_count).toBe(0);
    expect((await authorVisitor.get("/messages/reply_comment")).body).not.toMatch(/class="notification unread"/);
    // Another user's line is not found.
    expect((await fans[0]!.visitor.get(`/messages/open/${id}`)).statusCode).toBe(404);

    const deleted = await authorVisitor.postForm("/en/messages/reply_comment", {
      csrftoken: await authorVisitor.csrfToken(),
      intent: "delete",
      id,
    });
    expect(deleted.statusCode).toBe(200);
    expect(lines((await authorVisitor.get("/messages/reply_comment")).body)).toBe(0);
  });
});
