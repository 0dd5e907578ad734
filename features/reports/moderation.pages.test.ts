import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApi, Visitor, type TestApi } from "../../tests/support/api.ts";
import {
  addMember,
  createCircle,
  createComment,
  createSignedInUser,
  createUser,
  createWriting,
  signedInVisitor,
} from "../../tests/support/factories.ts";
import { databaseKinds } from "../../tests/support/database.ts";

/** The report page and the moderation queues as plain HTML forms (no JavaScript), in this process. */
describe.each(databaseKinds)("report and moderation pages on %s", (kind) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi(kind, { pages: true });
  });
  afterAll(() => api.close());
  const db = () => api.database.db;

  it("reports without JavaScript, refuses a repeat in the page's language, and sends visitors to sign in and back", async () => {
    const author = await createUser(db());
    const writing = await createWriting(db(), author, { title: "无脚本举报" });
    const page = `/circles/1/writing/${writing.id}`;
    const reportPage = `/subjects/writing/${writing.id}/report`;

    // The action bar links to the report page, coming back to the reading page.
    const reading = (await new Visitor(api.app).get(page)).body;
    expect(reading).toContain(`${reportPage}?next=${encodeURIComponent(page)}`);
    const visitor = new Visitor(api.app);
    const asked = await visitor.get(`${reportPage}?next=${encodeURIComponent(page)}`);
    expect(asked.statusCode).toBe(302);
    expect(asked.headers.location).toContain("/login?next=");

    const { visitor: reader } = await createSignedInUser(api.app, db());
    const form = await reader.get(`${reportPage}?next=${encodeURIComponent(page)}`);
    expect(form.statusCode).toBe(200);
    expect(form.body).toContain("无脚本举报");
    expect(form.body).toContain("垃圾广告");
    const posted = await reader.postForm(reportPage, {
      csrftoken: await reader.csrfToken(),
      next: page,
      reason: "misinformation",
      description: "内容不实",
    });
    expect(posted.statusCode).toBe(303);
    expect(posted.headers.location).toBe(`${reportPage}?done=1&next=${encodeURIComponent(page)}`);
    const done = await reader.get(posted.headers.location as string);
    expect(done.body).toContain("举报成功");
    expect(done.body).toContain(`href="${page}"`);

    const again = await reader.postForm(`/en${reportPage}`, { csrftoken: await reader.csrfToken(), next: page, reason: "spam" });
    expect(again.statusCode).toBe(409);
    expect(again.body).toContain("You have already reported this. Repeated flagging is not allowed.");

    const unreadable = await reader.get(`/subjects/writing/999999/report`);
    expect(unreadable.statusCode).toBe(404);

    // Others' comments carry Report too (one's own carry Delete instead).
    const comment = await createComment(db(), writing.id, author, { body: "可举报的评论" });
    const withComment = (await reader.get(page)).body;
    expect(withComment).toContain(`/subjects/comment/${comment.id}/report?next=`);
    expect((await reader.get(`/subjects/comment/${comment.id}/report`)).body).toContain("可举报的评论");
  });

  it("lets a circle's moderator hide from the queue with a note; the author sees the notice, others a 404", async () => {
    const circle = await createCircle(db());
    const author = await createUser(db());
    const authorVisitor = await signedInVisitor(api.app, db(), author);
    const writing = await createWriting(db(), author, { circleId: circle.id, title: "待审核文章" });
    const { visitor: reader } = await createSignedInUser(api.app, db());
    await reader.postForm(`/subjects/writing/${writing.id}/report`, { csrftoken: await reader.csrfToken(), reason: "spam" });

    const { user: master, visitor: moderator } = await createSignedInUser(api.app, db());
    await addMember(db(), circle.id, master.id, "master");
    const queuePath = `/circles/${circle.id}/settings/reports`;
    const queue = await moderator.get(queuePath);
    expect(queue.statusCode).toBe(200);
    expect(queue.body).toContain("待审核文章");
    expect(queue.body).toContain("1 人举报");
    const caseId = /data-case-id="(\d+)"/.exec(queue.body)?.[1];
    expect(caseId).toBeDefined();

    // A plain member may see the circle but not its queue.
    expect((await reader.get(queuePath)).statusCode).toBe(403);
    expect((await reader.get("/admin/reports")).statusCode).toBe(403);

    const decided = await moderator.postForm(`${queuePath}?status=open`, {
      csrftoken: await moderator.csrfToken(),
      intent: "resolve",
      case_id: caseId!,
      action: "hide",
      note: "广告内容",
    });
    expect(decided.statusCode).toBe(200);
    expect(decided.body).toContain("已保存处理结果：隐藏");
    const history = await moderator.get(`/en${queuePath}?status=decided`);
    expect(history.body).toContain("Hidden by");
    expect(history.body).toContain("广告内容");

    const page = `/circles/${circle.id}/writing/${writing.id}`;
    const own = await authorVisitor.get(page);
    expect(own.statusCode).toBe(200);
    expect(own.body).toContain("该内容已被管理员隐藏");
    expect((await reader.get(page)).statusCode).toBe(404);
    expect((await new Visitor(api.app).get(page)).statusCode).toBe(404);
    expect((await new Visitor(api.app).get(`/circles/${circle.id}`)).body).not.toContain("待审核文章");
  });

  it("serves the site queue to site moderators in both languages", async () => {
    const author = await createUser(db());
    const writing = await createWriting(db(), author, { title: "全站队列" });
    const { visitor: reader } = await createSignedInUser(api.app, db());
    await reader.postForm(`/subjects/writing/${writing.id}/report`, { csrftoken: await reader.csrfToken(), reason: "other" });
    const { visitor: moderator } = await createSignedInUser(api.app, db(), { siteRole: "moderator" });
    const zh = await moderator.get("/admin/reports");
    expect(zh.statusCode).toBe(200);
    expect(zh.body).toContain("全站举报队列");
    expect(zh.body).toContain("全站队列");
    const en = await moderator.get("/en/admin/reports");
    expect(en.body).toContain("Site moderation queue");
    expect(en.body).toContain("Other");
    // Their personal centre links the queue; a reader's does not.
    expect((await moderator.get("/account/home")).body).toContain('href="/admin/reports"');
    expect((await reader.get("/account/home")).body).not.toContain('href="/admin/reports"');
  });
});
