import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApi, Visitor, type TestApi } from "../../tests/support/api.ts";
import { createSignedInUser } from "../../tests/support/factories.ts";
import { databaseKinds } from "../../tests/support/database.ts";

/** `/link` and `/admin/links` as plain HTML: listed links for everyone, a suggestion without JavaScript, the review queue for staff. */
describe.each(databaseKinds)("friend link pages on %s", (kind) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi(kind, { pages: true });
  });
  afterAll(() => api.close());
  const db = () => api.database.db;

  it("suggests a link from the page, reviews it on the staff page, and shows it to visitors at once in both languages", async () => {
    const visitor = new Visitor(api.app);
    const before = await visitor.get("/link");
    expect(before.statusCode).toBe(200);
    expect(before.body).toContain("<title>友情链接 - ");
    expect(before.body).toContain('data-testid="link-sign-in"');
    expect(before.body).not.toContain("代数学习站");
    expect((await visitor.get("/en/link")).body).toContain("Friend links");

    const { visitor: reader } = await createSignedInUser(api.app, db());
    const token = await reader.csrfToken();
    const refused = await reader.postForm("/en/link", {
      csrftoken: token,
      intent: "suggest",
      name: "代数学习站",
      url: "javascript:alert(1)",
      language: "zh-CN",
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain("Please enter a web address starting with http:// or https://.");
    const sent = await reader.postForm("/link", {
      csrftoken: token,
      intent: "suggest",
      name: "代数学习站",
      url: "https://algebra.example/",
      description: "",
      language: "zh-CN",
    });
    expect(sent.statusCode).toBe(303);
    expect(sent.headers.location).toBe("/link?suggested=1");
    const mine = await reader.get("/link?suggested=1");
    expect(mine.body).toContain('data-testid="link-suggested"');
    expect(mine.body).toContain("等待审核");
    expect((await visitor.get("/link")).body).not.toContain("代数学习站");

    expect((await reader.get("/admin/links")).statusCode).toBe(403);
    expect((await visitor.get("/admin/links")).statusCode).toBe(302);
    const { visitor: moderator } = await createSignedInUser(api.app, db(), { siteRole: "moderator" });
    const queue = await moderator.get("/en/admin/links");
    expect(queue.statusCode).toBe(200);
    expect(queue.body).toContain("Friend link suggestions");
    const id = /name="link_id" value="(\d+)"/.exec(queue.body)?.[1];
    expect(id).toBeDefined();
    const forged = await reader.postForm("/admin/links", { csrftoken: token, intent: "review", link_id: id!, decision: "approve" });
    expect(forged.statusCode).toBe(403);
    const approved = await moderator.postForm("/admin/links", {
      csrftoken: await moderator.csrfToken(),
      intent: "review",
      link_id: id!,
      decision: "approve",
      note: "",
      reason: "useful site",
    });
    expect(approved.statusCode).toBe(200);
    expect(approved.body).toContain("已通过");

    const zh = await visitor.get("/link");
    expect(zh.body).toContain("代数学习站");
    expect(zh.body).toContain('href="https://algebra.example/"');
    const en = await visitor.get("/en/link");
    expect(en.body).toContain("代数学习站");
    expect(en.body).toContain("Chinese");
    expect((await moderator.get("/link")).body).toContain('href="/admin/links"');
  });
});
