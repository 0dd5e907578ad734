import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { desc, eq } from "drizzle-orm";
import { createTestApi, Visitor, type TestApi } from "../../tests/support/api.ts";
import { createSignedInUser } from "../../tests/support/factories.ts";
import { databaseKinds } from "../../tests/support/database.ts";
import { auditLog, missions } from "../../server/db/schema/index.ts";
import { checkLedger, ledgerIsConsistent } from "../ledger/check.ts";

interface AdminMission {
  id: number;
  key: string;
  scope: string;
  metric: string;
  target: number;
  reward: { currency: string; amount: number };
  active: boolean;
  claimed: number;
}

/** Missions as data written by admins through `/api/admin/missions/`: admin-only, audited, and what users see and are paid at once. */
describe.each(databaseKinds)("admins' missions on %s", (kind) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi(kind);
  });
  afterAll(() => api.close());
  const db = () => api.database.db;
  let keys = 0;
  const freshKey = () => `test_mission_${kind}_${(keys += 1)}`;
  const create = (visitor: Visitor, json: unknown) => visitor.request("POST", "/api/admin/missions/", { json });
  const change = (visitor: Visitor, id: number, json: unknown) => visitor.request("PATCH", `/api/admin/missions/${id}/`, { json });
  const daily = async (visitor: Visitor) => (await visitor.get("/api/missions/?scope=daily")).json() as { id: number; status: string }[];
  const lastAudit = async (target: string) =>
    (await db().select().from(auditLog).where(eq(auditLog.target, target)).orderBy(desc(auditLog.id)).limit(1))[0];
  const draft = (overrides: Record<string, unknown> = {}) => ({
    key: freshKey(),
    scope: "daily",
    metric: "checkins",
    target: 1,
    reward_amount: 7,
    title_zh: "今日签到奖励",
    title_en: "Check in today",
    reason: "new season",
    ...overrides,
  });

  it("lets only admins list, make and change missions; moderators, users and visitors are refused", async () => {
    const moderator = await createSignedInUser(api.app, db(), { siteRole: "moderator" });
    const user = await createSignedInUser(api.app, db());
    expect((await new Visitor(api.app).get("/api/admin/missions/")).statusCode).toBe(401);
    for (const visitor of [moderator.visitor, user.visitor]) {
      expect((await visitor.get("/api/admin/missions/")).statusCode).toBe(403);
      expect((await create(visitor, draft())).json()).toMatchObject({ code: "forbidden" });
    }
    const [seeded] = await db().select().from(missions).where(eq(missions.key, "daily_checkin"));
    expect((await change(moderator.visitor, seeded!.id, { active: false, reason: "x" })).statusCode).toBe(403);
    expect((await db().select().from(missions).where(eq(missions.id, seeded!.id)))[0]!.active).toBe(true);
  });

  it("validates a new mission, refuses a key in use, records the reason, and fixes the currency by scope", async () => {
    const admin = await createSignedInUser(api.app, db(), { siteRole: "admin" });
    expect((await create(admin.visitor, draft({ reason: " " }))).json()).toMatchObject({ code: "reason_required" });
    const bad = await create(admin.visitor, draft({ key: "Bad Key", target: 0, metric: "clicks" }));
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({
      code: "validation_failed",
      fields: {
        key: "键由 3 到 48 个小写字母、数字或下划线组成，以字母开头。",
        target: "目标是 1 到 1000000 之间的整数。",
        metric: "输入的内容无效。",
      },
    });
    const body = draft({ scope: "creator", metric: "piece_unlockers", target: 3, reward_amount: 12 });
    const made = await create(admin.visitor, body);
    expect(made.statusCode, made.body).toBe(201);
    const { id } = made.json() as { id: number };
    const again = await create(admin.visitor, { ...body, scope: "daily" });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: "mission_key_taken" });
    expect(again.json().message).toContain(body.key);

    const listed = ((await admin.visitor.get("/api/admin/missions/")).json() as { results: AdminMission[] }).results;
    expect(listed.find((row) => row.id === id)).toMatchObject({
      key: body.key,
      scope: "creator",
      metric: "piece_unlockers",
      target: 3,
      reward: { currency: "sinecoin", amount: 12 },
      active: true,
      claimed: 0,
    });
    expect(await lastAudit(`mission:${id}`)).toMatchObject({
      action: "mission.create",
      actorName: admin.user.username,
      reason: "new season",
      after: { key: body.key, reward: { currency: "sinecoin", amount: 12 } },
    });
  });

  it("changes terms, pauses and resumes a mission at once for users, audited each time; the claim pays the terms of the moment, once", async () => {
    const admin = await createSignedInUser(api.app, db(), { siteRole: "admin" });
    const user = await createSignedInUser(api.app, db());
    const { id } = (await create(admin.visitor, draft())).json() as { id: number };
    expect((await daily(user.visitor)).find((row) => row.id === id)).toMatchObject({ status: "open" });
    expect((await user.visitor.request("POST", "/api/Users/checkin/", { json: {} })).statusCode).toBe(200);
    expect((await daily(user.visitor)).find((row) => row.id === id)).toMatchObject({ status: "completed" });

    // A higher target applies to the current period at once.
    expect((await change(admin.visitor, id, { target: 2 })).json()).toMatchObject({ code: "reason_required" });
    expect((await change(admin.visitor, id, { target: 2, reason: "too easy" })).statusCode).toBe(200);
    expect((await daily(user.visitor)).find((row) => row.id === id)).toMatchObject({ status: "open", progress: 1, target: 2 });
    expect((await user.visitor.request("POST", `/api/missions/${id}/claim/`, { json: {} })).json()).toMatchObject({
      code: "not_completed",
    });
    const update = await lastAudit(`mission:${id}`);
    expect(update).toMatchObject({ action: "mission.update", reason: "too easy", before: { target: 1 }, after: { target: 2 } });

    expect(
      (await change(admin.visitor, id, { target: 1, reward_amount: 9, title_en: "Check in, season two", reason: "back" })).statusCode,
    ).toBe(200);
    // Paused: off the user's list, and its claim is 404.
    const paused = await change(admin.visitor, id, { active: false, reason: "broken rule" });
    expect(paused.json()).toEqual({ id, active: false });
    expect(await lastAudit(`mission:${id}`)).toMatchObject({ action: "mission.pause", before: { active: true }, after: { active: false } });
    expect((await daily(user.visitor)).find((row) => row.id === id)).toBeUndefined();
    expect((await user.visitor.request("POST", `/api/missions/${id}/claim/`, { json: {} })).statusCode).toBe(404);
    // The same change again records nothing.
    const audited = (
      await db()
        .select()
        .from(auditLog)
        .where(eq(auditLog.target, `mission:${id}`))
    ).length;
    expect((await change(admin.visitor, id, { active: false, reason: "again" })).statusCode).toBe(200);
    expect(
      await db()
        .select()
        .from(auditLog)
        .where(eq(auditLog.target, `mission:${id}`)),
    ).toHaveLength(audited);

    expect((await change(admin.visitor, id, { active: true, reason: "fixed" })).statusCode).toBe(200);
    expect(await lastAudit(`mission:${id}`)).toMatchObject({ action: "mission.resume" });
    const goldBefore = ((await user.visitor.get("/api/wallet/")).json() as { gold: number }).gold;
    const claims = await Promise.all(
      Array.from({ length: 5 }, () => user.visitor.request("POST", `/api/missions/${id}/claim/`, { json: {} })),
    );
    expect(claims.filter((answer) => answer.statusCode === 200).map((answer) => answer.json())).toEqual([
      { reward: { currency: "gold", amount: 9 } },
    ]);
    expect(((await user.visitor.get("/api/wallet/")).json() as { gold: number }).gold).toBe(goldBefore + 9);
    const listed = ((await admin.visitor.get("/api/admin/missions/")).json() as { results: AdminMission[] }).results;
    expect(listed.find((row) => row.id === id)).toMatchObject({ claimed: 1, reward: { amount: 9 }, active: true });
    expect((await change(admin.visitor, 999_999, { active: false, reason: "x" })).statusCode).toBe(404);
    const report = await checkLedger(db());
    expect(ledgerIsConsistent(report)).toBe(true);
  });
});
