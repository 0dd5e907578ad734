import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { createTestApi, type TestApi, type Visitor } from "../../tests/support/api.ts";
import { createQuestion, createSignedInUser, createUser, createWriting, signedInVisitor } from "../../tests/support/factories.ts";
import { databaseKinds } from "../../tests/support/database.ts";
import { knownLoginIps, missionGrants, missions } from "../../server/db/schema/index.ts";
import { checkLedger, ledgerIsConsistent } from "../ledger/check.ts";
import { checkIn } from "../checkins/service.ts";
import { closeMissionPeriods, listMissions } from "./service.ts";
import { presentViewer } from "../accounts/viewer.ts";
import { incomeHolds } from "../settlement/service.ts";

interface MissionItem {
  id: number;
  key: string;
  reward: { currency: string; amount: number };
  target: number;
  progress: number;
  status: string;
  period_ends_at: string;
}

describe.each(databaseKinds)("missions on %s", (kind) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi(kind, { jobs: true });
  });
  afterAll(() => api.close());
  const db = () => api.database.db;
  const day = 86_400_000;
  const list = async (visitor: Visitor, scope = "daily") => {
    const answer = await visitor.get(`/api/missions/?scope=${scope}`);
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.json() as MissionItem[];
  };
  const mission = async (key: string) => (await db().select().from(missions).where(eq(missions.key, key)))[0]!;
  const claim = (visitor: Visitor, id: number) => visitor.request("POST", `/api/missions/${id}/claim/`, { json: {} });
  const gold = async (visitor: Visitor) => ((await visitor.get("/api/wallet/")).json() as { gold: number }).gold;
  const consistent = async () => {
    const report = await checkLedger(db());
    expect(report.mismatchedUsers).toEqual([]);
    expect(ledgerIsConsistent(report)).toBe(true);
  };

  it("completes the daily check-in mission from the check-in itself and pays it once, even to 10 concurrent claims", async () => {
    const { visitor } = await createSignedInUser(api.app, db());
    const checkinMission = await mission("daily_checkin");
    const before = (await list(visitor)).find((item) => item.key === "daily_checkin")!;
    expect(before).toMatchObject({
      id: checkinMission.id,
      progress: 0,
      target: 1,
      status: "open",
      reward: { currency: "gold", amount: 10 },
    });
    expect(new Date(before.period_ends_at).getTime()).toBeGreaterThan(Date.now());
    expect((await claim(visitor, checkinMission.id)).json()).toMatchObject({ code: "not_completed" });

    expect((await visitor.request("POST", "/api/Users/checkin/", { json: {} })).statusCode).toBe(200);
    expect((await list(visitor)).find((item) => item.key === "daily_checkin")).toMatchObject({ progress: 1, status: "completed" });
    const goldBefore = await gold(visitor);
    const answers = await Promise.all(Array.from({ length: 10 }, () => claim(visitor, checkinMission.id)));
    const paid = answers.filter((answer) => answer.statusCode === 200);
    expect(paid).toHaveLength(1);
    expect(paid[0]!.json()).toEqual({ reward: { currency: "gold", amount: 10 } });
    expect(answers.filter((answer) => answer.statusCode === 409).map((answer) => answer.json().code)).toEqual(
      Array(9).fill("already_claimed"),
    );
    expect(await gold(visitor)).toBe(goldBefore + 10);
    expect((await list(visitor)).find((item) => item.key === "daily_checkin")).toMatchObject({ status: "claimed" });
    expect((await claim(visitor, 999_999)).statusCode).toBe(404);
    await consistent();
  });

  it("counts likes from distinct people the rule accepts: alt accounts liking each other make no progress", async () => {
    const author = await createSignedInUser(api.app, db());
    await db().insert(knownLoginIps).values({ userId: author.user.id, ip: "198.51.100.7" });
    const writing = await createWriting(db(), author.user);
    const like = async (visitor: Visitor) =>
      expect(
        (await visitor.request("PUT", `/api/subjects/writing/${writing.id}/reaction/`, { json: { reaction: "like" } })).statusCode,
      ).toBe(200);
    const likes = async () => (await list(author.visitor, "weekly")).find((item) => item.key === "weekly_likes")!;

    // A farm: fresh accounts, and old ones run from the author's own address.
    for (let index = 0; index < 6; index++) await like((await createSignedInUser(api.app, db())).visitor);
    for (let index = 0; index < 6; index++) {
      const alt = await createUser(db(), { createdAt: new Date(Date.now() - 60 * day) });
      await db().insert(knownLoginIps).values({ userId: alt.id, ip: "198.51.100.7" });
      await like(await signedInVisitor(api.app, db(), alt));
    }
    await like(author.visitor);
    expect(await likes()).toMatchObject({ progress: 0, status: "open", target: 10 });

    // Ten established readers from their own addresses.
    for (let index = 0; index < 10; index++) {
      const reader = await createUser(db(), { createdAt: new Date(Date.now() - 30 * day) });
      await db()
        .insert(knownLoginIps)
        .values({ userId: reader.id, ip: `203.0.113.${index + 1}` });
      await like(await signedInVisitor(api.app, db(), reader));
    }
    expect(await likes()).toMatchObject({ progress: 10, status: "completed" });
  });

  it("keeps creator missions for monetization participants, paid in sinecoin as pending profit when claimed", async () => {
    const registered = await createSignedInUser(api.app, db());
    expect((await registered.visitor.get("/api/missions/?scope=creator")).statusCode).toBe(403);
    const creator = await createSignedInUser(api.app, db(), { userType: "VIP users" });
    const items = await list(creator.visitor, "creator");
    expect(items.map((item) => item.key)).toEqual(["creator_article_reads", "creator_answer_accepted", "creator_unlocks"]);
    expect(items.every((item) => item.reward.currency === "sinecoin" && item.status === "open")).toBe(true);
    expect((await registered.visitor.get("/api/missions/?scope=monthly")).statusCode).toBe(400);

    // An established asker accepts the creator's answer: the creator mission pays 5 sinecoin, pending until settled.
    const asker = await createUser(db(), { createdAt: new Date(Date.now() - 30 * day) });
    const question = await createQuestion(db(), asker, { answerers: [creator.user] });
    const accepted = await (
      await signedInVisitor(api.app, db(), asker)
    ).request("PUT", `/api/questions/${question.id}/accepted_answer/`, { json: { answer_id: question.answers[0]!.id } });
    expect(accepted.statusCode, accepted.body).toBe(200);
    const answerMission = (await list(creator.visitor, "creator")).find((item) => item.key === "creator_answer_accepted")!;
    expect(answerMission).toMatchObject({ progress: 1, status: "completed" });
    expect((await claim(registered.visitor, answerMission.id)).statusCode).toBe(403);
    expect((await claim(creator.visitor, answerMission.id)).json()).toEqual({ reward: { currency: "sinecoin", amount: 5 } });
    expect(await incomeHolds(db(), creator.user.id)).toMatchObject({ pending: 5, available: 0 });
    expect((await creator.visitor.get("/api/wallet/")).json()).toMatchObject({ sinecoin: 5, sinecoin_total_profit: 5 });
    await consistent();
  });

  it("the period reset records completed, unclaimed missions once, keeps them claimable for 7 days, then expires them", async () => {
    const now = new Date();
    const early = await createSignedInUser(api.app, db());
    const late = await createSignedInUser(api.app, db());
    for (const user of [early.user, late.user]) await checkIn({ db: db() }, user.id, new Date(now.getTime() - day));
    const checkinMission = await mission("daily_checkin");
    const grantsOf = (userId: number) =>
      db()
        .select()
        .from(missionGrants)
        .where(and(eq(missionGrants.userId, userId), eq(missionGrants.missionId, checkinMission.id)));

    const first = await api.jobs!.runJobNow("mission-periods");
    expect(first.map((run) => run.outcome)).toEqual(["completed"]);
    await api.jobs!.runJobNow("mission-periods");
    const recorded = await grantsOf(early.user.id);
    expect(recorded).toHaveLength(1);
    expect(recorded[0]).toMatchObject({ status: "completed", progress: 1 });
    expect(recorded[0]!.periodEnd.getTime()).toBeLessThanOrEqual(now.getTime());

    const shown = (await list(early.visitor)).filter((item) => item.key === "daily_checkin");
    expect(shown.map((item) => item.status)).toEqual(["open", "completed"]);
    const goldBefore = await gold(early.visitor);
    expect((await claim(early.visitor, checkinMission.id)).json()).toEqual({ reward: { currency: "gold", amount: 10 } });
    expect(await gold(early.visitor)).toBe(goldBefore + 10);
    expect((await claim(early.visitor, checkinMission.id)).json()).toMatchObject({ code: "not_completed" });

    const later = new Date(now.getTime() + 8 * day);
    const expiring = await closeMissionPeriods(db(), later);
    expect(expiring.expired).toBeGreaterThanOrEqual(1);
    expect(await closeMissionPeriods(db(), later)).toMatchObject({ expired: 0 });
    expect((await grantsOf(late.user.id))[0]).toMatchObject({ status: "expired" });
    expect((await grantsOf(early.user.id))[0]).toMatchObject({ status: "claimed" });
    const viewer = presentViewer(late.user);
    const statuses = (await listMissions(db(), viewer, "daily", later)).filter((view) => view.mission.key === "daily_checkin");
    expect(statuses.map((view) => view.status)).toContain("expired");
    await consistent();
  });
});
