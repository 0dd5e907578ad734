import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { desc, eq } from "drizzle-orm";
import { createTestApi, type TestApi } from "../../tests/support/api.ts";
import { createSignedInUser } from "../../tests/support/factories.ts";
import { oneDatabaseKind } from "../../tests/support/database.ts";
import { auditLog, missions } from "../../server/db/schema/index.ts";

/** `/admin/missions` in both languages: admins only, make a mission, change its terms, pause it; each with a reason, audited. */
describe.each(oneDatabaseKind)("the admin missions page on %s", (kind) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi(kind, { pages: true });
  });
  afterAll(() => api.close());
  const db = () => api.database.db;
  const row = async (key: string) => (await db().select().from(missions).where(eq(missions.key, key)))[0]!;

  it("is the admins' own page, in the admin menu, and its forms make, change and pause missions", async () => {
    const moderator = await createSignedInUser(api.app, db(), { siteRole: "moderator" });
    expect((await moderator.visitor.get("/admin/missions")).statusCode).toBe(403);
    expect((await moderator.visitor.get("/admin")).body).not.toContain('href="/admin/missions"');
    const admin = await createSignedInUser(api.app, db(), { siteRole: "admin" });
    const page = await admin.visitor.get("/admin/missions");
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain("任务管理");
    expect(page.body).toContain("每日签到");
    expect(page.body).toContain("daily_checkin");
    const english = (await admin.visitor.get("/en/admin/missions")).body;
    expect(english).toContain("New mission");
    expect(english).toContain("Distinct genuine people liking one&#x27;s content");
    expect((await admin.visitor.get("/admin")).body).toContain('href="/admin/missions"');

    const form = async (fields: Record<string, string>) =>
      admin.visitor.postForm("/admin/missions", { csrftoken: await admin.visitor.csrfToken(), ...fields });
    const fields = {
      intent: "create",
      key: "weekly_publish_three",
      scope: "weekly",
      metric: "writings_published",
      target: "3",
      reward_amount: "60",
      title_zh: "本周发表三篇作品",
      title_en: "Publish three writings this week",
      position: "5",
    };
    const noReason = await form({ ...fields, reason: "" });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.body).toContain("本周发表三篇作品");
    const made = await form({ ...fields, reason: "更多写作激励" });
    expect(made.statusCode, made.body).toBe(200);
    expect(made.body).toContain("任务已创建。");
    const mission = await row("weekly_publish_three");
    expect(mission).toMatchObject({ scope: "weekly", rewardCurrency: "gold", rewardAmount: 60, target: 3, active: true });
    expect((await form({ ...fields, reason: "again" })).body).toContain("已有键为“weekly_publish_three”的任务。");

    const changed = await form({
      intent: "update",
      id: String(mission.id),
      title_zh: "本周发表两篇作品",
      title_en: "Publish two writings this week",
      metric: "writings_published",
      target: "2",
      reward_amount: "40",
      position: "5",
      reason: "三篇太多",
    });
    expect(changed.body).toContain("任务已修改。");
    expect(await row("weekly_publish_three")).toMatchObject({ target: 2, rewardAmount: 40, titleZh: "本周发表两篇作品" });
    const badTarget = await form({ intent: "update", id: String(mission.id), title_zh: "x", title_en: "x", target: "0", reason: "r" });
    expect(badTarget.statusCode).toBe(400);
    expect(badTarget.body).toContain("目标是 1 到 1000000 之间的整数。");

    const paused = await admin.visitor.postForm("/en/admin/missions", {
      csrftoken: await admin.visitor.csrfToken(),
      intent: "pause",
      id: String(mission.id),
      reason: "holiday",
    });
    expect(paused.body).toContain("Mission paused.");
    expect((await row("weekly_publish_three")).active).toBe(false);
    const audit = await db()
      .select()
      .from(auditLog)
      .where(eq(auditLog.target, `mission:${mission.id}`))
      .orderBy(desc(auditLog.id));
    expect(audit.map((entry) => [entry.action, entry.reason])).toEqual([
      ["mission.pause", "holiday"],
      ["mission.update", "三篇太多"],
      ["mission.create", "更多写作激励"],
    ]);
    // A moderator's post is refused on the server, whatever the form says.
    const refused = await moderator.visitor.postForm("/admin/missions", {
      csrftoken: await moderator.visitor.csrfToken(),
      intent: "resume",
      id: String(mission.id),
      reason: "sneaky",
    });
    expect(refused.statusCode).toBe(403);
    expect((await row("weekly_publish_three")).active).toBe(false);
  });
});
