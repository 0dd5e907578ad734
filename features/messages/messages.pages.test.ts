import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApi, type TestApi } from "../../tests/support/api.ts";
import { createQuestion, createSignedInUser, createWriting } from "../../tests/support/factories.ts";
import { databaseKinds } from "../../tests/support/database.ts";
import { testPng } from "../../tests/support/images.ts";
import { attachments } from "../../server/db/schema/index.ts";
import { eq } from "drizzle-orm";

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

  it("names the content a line is about, in both languages, counts a comment that also mentions one once, and marks a list read", async () => {
    const { user: author, visitor: authorVisitor } = await createSignedInUser(api.app, db());
    const { user: reader, visitor: readerVisitor } = await createSignedInUser(api.app, db());
    const writing = await createWriting(db(), author, { title: "欧拉恒等式" });
    const posted = await readerVisitor.post(`/api/writings/${writing.id}/comments/`, { body: `写得很清楚，@${author.username} 再讲讲？` });
    expect(posted.statusCode).toBe(201);
    await authorVisitor.post(`/api/writings/${writing.id}/comments/`, { body: "好的", parent_id: posted.json().id });
    const question = await createQuestion(db(), author, { title: "什么是群" });
    expect((await readerVisitor.post(`/api/questions/${question.id}/answers/`, { content: "群是带有运算的集合。" })).statusCode).toBe(201);

    // React separates adjacent texts with empty comments.
    const page = async (visitor: typeof authorVisitor, path: string) => (await visitor.get(path)).body.replaceAll("<!-- -->", "");
    const zh = await page(authorVisitor, "/messages/reply_comment");
    expect(lines(zh)).toBe(1);
    expect(zh).toMatch(/评论了你的文章<a[^>]*>《欧拉恒等式》<\/a>：<span class="notification-excerpt">写得很清楚/);
    expect(zh).toContain("（并提到了你）");
    const en = await page(authorVisitor, "/en/messages/reply_comment");
    expect(en).toMatch(/commented on your article <a[^>]*>“欧拉恒等式”<\/a>: <span class="notification-excerpt">/);
    // The mention is the same comment: nothing in the @ list, one unread counter.
    expect(lines((await authorVisitor.get("/messages/at")).body)).toBe(0);
    const counts = (await authorVisitor.get("/api/Users/get_unread")).json();
    expect([counts.unread_comment_count, counts.unread_at_count]).toEqual([1, 0]);

    const replies = await page(readerVisitor, "/messages/reply_comment");
    expect(replies).toMatch(/回复了你在文章<a[^>]*>《欧拉恒等式》<\/a>下的评论：/);
    expect(await page(readerVisitor, "/en/messages/reply_comment")).toMatch(
      /replied to your comment on the article <a[^>]*>“欧拉恒等式”<\/a>: /,
    );
    expect(await page(authorVisitor, "/messages/answers")).toMatch(/回答了问题<a[^>]*>《什么是群》<\/a>/);

    const read = await authorVisitor.postForm("/messages/reply_comment", {
      csrftoken: await authorVisitor.csrfToken(),
      intent: "read_all",
    });
    expect(read.statusCode).toBe(200);
    expect((await authorVisitor.get("/api/Users/get_unread")).json().unread_comment_count).toBe(0);
    const after = (await authorVisitor.get("/messages/reply_comment")).body;
    expect(after).not.toMatch(/class="notification unread"/);
    expect(after).not.toContain('data-testid="mark-all-read"');
    void reader;
  });

  it("works without JavaScript: a moderator's announcement form, muting on the profile page, a chat message and blocking", async () => {
    const { visitor: moderator } = await createSignedInUser(api.app, db(), { siteRole: "moderator" });
    const { user: member, visitor: memberVisitor } = await createSignedInUser(api.app, db());
    expect((await memberVisitor.get("/messages/announcements")).body).not.toContain('data-testid="announcement-form"');
    const form = await moderator.get("/messages/announcements");
    expect(form.body).toContain('data-testid="announcement-form"');
    const published = await moderator.postForm("/messages/announcements", {
      csrftoken: await moderator.csrfToken(),
      intent: "announce",
      title_zh: "新功能上线",
      title_en: "New features",
      body_zh: "私信已上线。",
      body_en: "Private messages are here.",
    });
    expect(published.statusCode).toBe(200);
    expect((await memberVisitor.get("/messages/announcements")).body).toContain("私信已上线。");
    expect((await memberVisitor.get("/en/messages/announcements")).body).toContain("New features");

    const muted = await memberVisitor.postForm("/account/profile", {
      csrftoken: await memberVisitor.csrfToken(),
      intent: "notifications",
      category_like: "mute",
      category_follow: "notify",
    });
    expect(muted.statusCode).toBe(200);
    expect((await memberVisitor.get("/api/messages/preferences/")).json().muted).toEqual(["like"]);
    expect((await memberVisitor.get("/en/account/profile")).body).toContain("Message notifications");

    const { user: friend, visitor: friendVisitor } = await createSignedInUser(api.app, db());
    const sent = await friendVisitor.postForm(`/messages/chat/${member.username}`, {
      csrftoken: await friendVisitor.csrfToken(),
      intent: "send",
      text: "没有脚本也能发",
    });
    expect(sent.statusCode).toBe(200);
    expect((await memberVisitor.get("/messages/chat")).body).toContain("没有脚本也能发");
    const blocked = await memberVisitor.postForm(`/profile/${friend.username}`, {
      csrftoken: await memberVisitor.csrfToken(),
      intent: "block",
    });
    expect(blocked.statusCode).toBe(200);
    const refused = await friendVisitor.postForm(`/en/messages/chat/${member.username}`, {
      csrftoken: await friendVisitor.csrfToken(),
      intent: "send",
      text: "again",
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.body).toContain("This user has blocked you");

    // An image with a refused message is never stored.
    const png = await testPng(40, 30);
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const withImage = await friendVisitor.upload(`/messages/chat/${member.username}`, {
        bytes: png,
        filename: "a.png",
        contentType: "image/png",
        field: "image",
        fields: { csrftoken: await friendVisitor.csrfToken(), intent: "send", text: "" },
      });
      expect(withImage.statusCode).toBe(403);
    }
    expect(await db().select().from(attachments).where(eq(attachments.ownerId, friend.id))).toHaveLength(0);
  });

  it("keeps a chat page's images within the account's upload allowance", async () => {
    const { user: sender, visitor } = await createSignedInUser(api.app, db());
    const { user: peer } = await createSignedInUser(api.app, db());
    await db()
      .insert(attachments)
      .values(
        Array.from({ length: 30 }, (_, index) => ({
          fileId: `allowance${sender.id}x${index}`,
          ownerId: sender.id,
          purpose: "upload",
          contentType: "image/png",
          size: 10,
        })),
      );
    const refused = await visitor.upload(`/en/messages/chat/${peer.username}`, {
      bytes: await testPng(40, 30),
      filename: "a.png",
      contentType: "image/png",
      field: "image",
      fields: { csrftoken: await visitor.csrfToken(), intent: "send", text: "" },
    });
    expect(refused.statusCode).toBe(429);
    expect(await db().select().from(attachments).where(eq(attachments.ownerId, sender.id))).toHaveLength(30);
  });
});
