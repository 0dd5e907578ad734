import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApi, type TestApi } from "../../tests/support/api.ts";
import { createSignedInUser } from "../../tests/support/factories.ts";
import { oneDatabaseKind } from "../../tests/support/database.ts";

/** The mission pages as plain forms, in both languages: a daily mission completed by checking in, then claimed. */
describe.each(oneDatabaseKind)("mission pages on %s", (kind) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi(kind, { pages: true });
  });
  afterAll(() => api.close());
  const db = () => api.database.db;
  const missionRow = (html: string, key: string) => new RegExp(`data-mission="${key}"[\\s\\S]*?</li>`).exec(html)?.[0] ?? "";

  it("shows the daily missions with their progress, and claims the check-in mission once", async () => {
    const { visitor } = await createSignedInUser(api.app, db());
    const before = (await visitor.get("/account/missions")).body;
    expect(missionRow(before, "daily_checkin")).toContain("每日签到");
    expect(missionRow(before, "daily_checkin")).toContain("进行中");
    expect(missionRow(before, "daily_checkin")).not.toContain("领取奖励");

    expect((await visitor.request("POST", "/api/Users/checkin/", { json: {} })).statusCode).toBe(200);
    const completed = (await visitor.get("/account/missions")).body;
    expect(missionRow(completed, "daily_checkin")).toContain("已完成");
    const missionId = /name="mission_id" value="(\d+)"/.exec(missionRow(completed, "daily_checkin"))?.[1];
    expect(missionId).toBeDefined();

    const claimed = await visitor.postForm("/account/missions", {
      csrftoken: await visitor.csrfToken(),
      intent: "claim",
      mission_id: missionId!,
    });
    expect(claimed.statusCode, claimed.body).toBe(200);
    expect(claimed.body).toContain("已领取奖励");
    expect(missionRow(claimed.body, "daily_checkin")).toContain("已领取");
    const again = await visitor.postForm("/en/account/missions", {
      csrftoken: await visitor.csrfToken(),
      intent: "claim",
      mission_id: missionId!,
    });
    expect(again.body).toContain("You have already claimed this.");
    expect(missionRow(again.body, "daily_checkin")).toContain("Check in today");

    const weekly = (await visitor.get("/en/account/missions?scope=weekly")).body;
    expect(missionRow(weekly, "weekly_likes")).toContain("Receive likes from 10 different users");
    expect(missionRow(weekly, "weekly_likes")).toContain("0 / 10");
  });

  it("keeps /monetization/missions for monetization participants", async () => {
    const registered = await createSignedInUser(api.app, db());
    expect((await registered.visitor.get("/monetization/missions")).statusCode).toBe(404);
    const creator = await createSignedInUser(api.app, db(), { userType: "VIP users" });
    expect((await registered.visitor.get("/account/missions")).body).not.toContain('href="/monetization/missions"');
    expect((await creator.visitor.get("/account/missions")).body).toContain('href="/monetization/missions"');
    const page = (await creator.visitor.get("/monetization/missions")).body;
    expect(page).toContain("创作者任务");
    expect(missionRow(page, "creator_unlocks")).toContain("一篇付费内容被 5 位读者解锁");
    expect((await creator.visitor.get("/en/monetization/missions")).body).toContain("A pay-to-view piece unlocked by 5 readers");
    expect((await api.app.inject({ method: "GET", url: "/account/missions" })).statusCode).toBe(302);
  });
});
