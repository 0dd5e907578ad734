import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApi, type TestApi } from "../../tests/support/api.ts";
import { createSignedInUser } from "../../tests/support/factories.ts";
import { databaseKinds } from "../../tests/support/database.ts";

/** The question page's answer box: the asking editor's field, with a server draft kept while typing and dropped once answered. */
describe.each(databaseKinds)("the answer box's draft on %s", (kind) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi(kind, { pages: true });
  });
  afterAll(() => api.close());
  const db = () => api.database.db;

  it("restores the saved answer draft into the editor and drops it once the answer is posted", async () => {
    const asker = await createSignedInUser(api.app, db());
    const created = await asker.visitor.post("/api/circles/1/questions/", { title: "怎样证明勾股定理？", content: "求思路。\n" });
    expect(created.statusCode, created.body).toBe(201);
    const question = created.json() as { id: number; url: string };
    const { visitor } = await createSignedInUser(api.app, db());

    const saved = await visitor.request("PUT", `/api/drafts/answer-${question.id}/`, {
      json: { title: "", body: "用面积法：$a^2+b^2=c^2$", fields: { circle_id: 1 }, version: 0 },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const page = await visitor.get(question.url);
    expect(page.statusCode).toBe(200);
    const box = page.body.slice(page.body.indexOf('data-testid="answer-box"'));
    expect(box).toContain('data-testid="answer-draft-restored"');
    expect(box).toContain("用面积法：$a^2+b^2=c^2$</textarea>");
    expect(box).toContain('data-testid="preview"');
    const drafts = await visitor.get("/account/drafts");
    expect(drafts.body).toContain(`href="/circles/1/questions/${question.id}#answer-box"`);

    const posted = await visitor.postForm(question.url, {
      csrftoken: await visitor.csrfToken(),
      intent: "answer",
      content: "用面积法。\n",
    });
    expect(posted.statusCode).toBe(303);
    const listed = await visitor.get("/api/drafts/");
    expect(listed.body).not.toContain(`answer-${question.id}`);
  });
});
