import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApi, type TestApi } from "../../tests/support/api.ts";
import { createSignedInUser } from "../../tests/support/factories.ts";
import { oneDatabaseKind } from "../../tests/support/database.ts";
import { grant } from "../../tests/support/money.ts";

/** The dispute queue under the admin layout, in both languages: listed, decided with a reason, then among the decided. */
describe.each(oneDatabaseKind)("the dispute queue page on %s", (kind) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi(kind, { pages: true });
  });
  afterAll(() => api.close());
  const db = () => api.database.db;

  it("shows a disputed rejection to moderators, who uphold it with a reason", async () => {
    const poster = await createSignedInUser(api.app, db());
    await grant(db(), poster.user.id, "sinecoin", 20);
    const { id } = (
      await poster.visitor.request("POST", "/api/trade/missions/", {
        json: {
          circle_id: 1,
          title: "写一份题解",
          description: "第三题",
          reward: 20,
          slots: 1,
          deadline: new Date(Date.now() + 86_400_000).toISOString(),
        },
        headers: { "idempotency-key": `dispute-page-${Date.now()}` },
      })
    ).json() as { id: number };
    const worker = await createSignedInUser(api.app, db());
    const { progress_id: progressId } = (
      await worker.visitor.request("POST", `/api/trade/missions/${id}/accept/`, { json: {} })
    ).json() as {
      progress_id: number;
    };
    await worker.visitor.request("POST", `/api/trade/progress/${progressId}/submit/`, { json: { content: "见附件" } });
    await poster.visitor.request("POST", `/api/trade/progress/${progressId}/reject/`, { json: { reason: "不完整" } });
    await worker.visitor.request("POST", `/api/trade/progress/${progressId}/dispute/`, { json: {} });

    expect((await worker.visitor.get("/admin/disputes")).statusCode).toBe(403);
    const moderator = await createSignedInUser(api.app, db(), { siteRole: "moderator" });
    const queue = (await moderator.visitor.get("/admin/disputes")).body;
    expect(queue).toContain("任务申诉");
    expect(queue).toContain("写一份题解");
    expect(queue).toContain("不完整");
    expect((await moderator.visitor.get("/en/admin/disputes")).body).toContain("Overturn and pay the worker");

    const noReason = await moderator.visitor.postForm("/admin/disputes", {
      csrftoken: await moderator.visitor.csrfToken(),
      intent: "decide",
      progress_id: String(progressId),
      decision: "uphold",
      reason: "",
    });
    expect(noReason.statusCode).toBe(400);
    const decided = await moderator.visitor.postForm("/admin/disputes", {
      csrftoken: await moderator.visitor.csrfToken(),
      intent: "decide",
      progress_id: String(progressId),
      decision: "uphold",
      reason: "题解缺少第二问",
    });
    expect(decided.statusCode, decided.body).toBe(200);
    expect(decided.body).toContain("申诉已处理。");
    expect((await moderator.visitor.get("/admin/disputes?state=decided")).body).toContain("题解缺少第二问");
  });
});
