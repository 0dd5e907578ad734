import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApi, Visitor, type TestApi } from "../../tests/support/api.ts";
import { createSignedInUser } from "../../tests/support/factories.ts";
import { databaseKinds } from "../../tests/support/database.ts";

/** Contact and feedback as plain HTML: readable by visitors, the form working without JavaScript, the admins' page guarded. */
describe.each(databaseKinds)("contact and feedback pages on %s", (kind) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi(kind, { pages: true });
  });
  afterAll(() => api.close());
  const db = () => api.database.db;

  it("shows the contact page to visitors in both languages, linked from every page's footer", async () => {
    const visitor = new Visitor(api.app);
    const zh = await visitor.get("/contact");
    expect(zh.statusCode).toBe(200);
    expect(zh.body).toContain("<title>联系我们 - ");
    expect(zh.body).toContain("support@circles.example");
    expect(zh.body).toContain('href="/feedback"');
    const en = await visitor.get("/en/contact");
    expect(en.statusCode).toBe(200);
    expect(en.body).toContain("Contact us");
    expect(en.body).toContain('href="/en/link"');
    for (const [path, prefix] of [
      ["/", ""],
      ["/en", "/en"],
    ] as const) {
      const home = await visitor.get(path);
      for (const target of ["/contact", "/feedback", "/link", "/school"]) expect(home.body).toContain(`href="${prefix}${target}"`);
    }
  });

  it("asks visitors to sign in, and lets a signed-in user send feedback without JavaScript and follow its status", async () => {
    const visitor = new Visitor(api.app);
    const anonymous = await visitor.get("/feedback");
    expect(anonymous.statusCode).toBe(200);
    expect(anonymous.body).toContain('data-testid="feedback-sign-in"');
    expect(anonymous.body).toContain("/login?next=%2Ffeedback");
    expect((await visitor.get("/en/feedback")).body).toContain("Sign in to send feedback");

    const { visitor: sender } = await createSignedInUser(api.app, db());
    const token = await sender.csrfToken();
    const refused = await sender.postForm("/en/feedback", { csrftoken: token, intent: "send", category: "bug", message: " " });
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain("Please write your feedback.");

    const sent = await sender.postForm("/feedback", {
      csrftoken: token,
      intent: "send",
      category: "bug",
      message: "评论框无法输入",
      page_path: "",
    });
    expect(sent.statusCode).toBe(303);
    expect(sent.headers.location).toBe("/feedback?sent=1");
    const page = await sender.get("/feedback?sent=1");
    expect(page.body).toContain('data-testid="feedback-sent"');
    expect(page.body).toContain("评论框无法输入");
    expect(page.body).toContain("已收到");
    expect((await sender.get("/en/feedback")).body).toContain("Received");

    const { visitor: other } = await createSignedInUser(api.app, db());
    expect((await other.get("/feedback")).body).not.toContain("评论框无法输入");
  });

  it("serves everyone's feedback to site admins only; an admin's status reaches the sender", async () => {
    const { visitor: sender } = await createSignedInUser(api.app, db());
    const id = (await sender.post("/api/feedback/", { category: "suggestion", message: "希望支持暗色主题切换" })).json().id as number;
    const { visitor: moderator } = await createSignedInUser(api.app, db(), { siteRole: "moderator" });
    expect((await moderator.get("/admin/feedback")).statusCode).toBe(403);
    expect((await sender.get("/admin/feedback")).statusCode).toBe(403);
    const anonymous = await new Visitor(api.app).get("/admin/feedback");
    expect(anonymous.statusCode).toBe(302);

    const { visitor: admin } = await createSignedInUser(api.app, db(), { siteRole: "admin" });
    const zh = await admin.get("/admin/feedback");
    expect(zh.statusCode).toBe(200);
    expect(zh.body).toContain("希望支持暗色主题切换");
    expect((await admin.get("/en/admin/feedback")).body).toContain("Feedback from users");
    const forged = await sender.postForm("/admin/feedback", {
      csrftoken: await sender.csrfToken(),
      intent: "status",
      feedback_id: String(id),
      status: "resolved",
    });
    expect(forged.statusCode).toBe(403);

    const saved = await admin.postForm("/en/admin/feedback", {
      csrftoken: await admin.csrfToken(),
      intent: "status",
      feedback_id: String(id),
      status: "resolved",
      reply: "Done in the next release",
      reason: "shipped",
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.body).toContain("the sender now sees");
    const mine = await sender.get("/en/feedback");
    expect(mine.body).toContain("Resolved");
    expect(mine.body).toContain("Done in the next release");
    expect((await admin.get("/feedback")).body).toContain('href="/admin/feedback"');
    // The sender is told in the message centre's system notices, in either language, with a link to the page.
    const notices = await sender.get("/en/messages/system_notice");
    expect(notices.body).toContain("The status of your feedback changed.");
    expect(notices.body).toContain('href="/en/feedback"');
    expect((await sender.get("/messages/system_notice")).body).toContain("你的反馈状态有了更新。");
  });
});
