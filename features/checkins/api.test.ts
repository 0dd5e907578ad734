import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { createTestApi, Visitor, type TestApi } from "../../tests/support/api.ts";
import { createUser, signedInVisitor } from "../../tests/support/factories.ts";
import { databaseKinds } from "../../tests/support/database.ts";
import { checkins, ledgerTransactions, users } from "../../server/db/schema/index.ts";
import { ledgerBalance, unbalancedLedgerTransactions } from "../ledger/service.ts";
import { checkinRewardsAccount } from "./service.ts";
import { rewardForStreak } from "./rules.ts";

describe.each(databaseKinds)("daily check-in API on %s", (kind) => {
  let api: TestApi;
  /** The injected clock: tests move it, nobody sleeps. */
  let now = new Date("2026-03-10T04:00:00Z");
  beforeAll(async () => {
    api = await createTestApi(kind, { now: () => now });
  });
  afterAll(() => api.close());

  const member = async () => {
    const user = await createUser(api.database.db);
    return { user, visitor: await signedInVisitor(api.app, api.database.db, user, { "accept-language": "en" }) };
  };

  it("checks in once per Shanghai day with a gold reward in the ledger, and refuses a second try with 409", async () => {
    now = new Date("2026-03-10T04:00:00Z");
    const { user, visitor } = await member();
    const first = await visitor.post("/api/Users/checkin/");
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ consecutive_days: 1, total_days: 1, gold: 10, reward: 10 });
    const second = await visitor.post("/api/Users/checkin/");
    expect(second.statusCode).toBe(409);
    expect(second.json()).toEqual({ code: "already_checked_in", message: "You have already checked in today." });
    expect((await visitor.get("/api/Users/checkin/")).json() as Record<string, unknown>).toEqual({
      checked_in_today: true,
      consecutive_days: 1,
      total_days: 1,
      reward: 10,
    });
    expect(((await visitor.get("/api/Users/LoginAuth/")).json() as { gold: number }).gold).toBe(10);
    expect(await ledgerBalance(api.database.db, { userId: user.id, currency: "gold" })).toBe(10);
  });

  it("uses the calendar day in Asia/Shanghai, not UTC", async () => {
    const { visitor } = await member();
    now = new Date("2026-03-10T15:59:00Z"); // 23:59 in Shanghai
    expect((await visitor.post("/api/Users/checkin/")).statusCode).toBe(200);
    now = new Date("2026-03-10T16:01:00Z"); // 00:01 the next day in Shanghai, still the 10th in UTC
    const next = await visitor.post("/api/Users/checkin/");
    expect(next.statusCode).toBe(200);
    expect(next.json()).toMatchObject({ consecutive_days: 2, total_days: 2 });
  });

  it("counts streaks and totals, pays more on streaks, and starts over after a missed day", async () => {
    const { user, visitor } = await member();
    const golds: number[] = [];
    for (const day of ["2026-04-01", "2026-04-02", "2026-04-03", "2026-04-04", "2026-04-05", "2026-04-06", "2026-04-07"]) {
      now = new Date(`${day}T01:00:00Z`);
      golds.push(((await visitor.post("/api/Users/checkin/")).json() as { gold: number }).gold);
    }
    expect(golds).toEqual([10, 22, 36, 52, 70, 90, 110]);
    now = new Date("2026-04-09T01:00:00Z");
    const status = (await visitor.get("/api/Users/checkin/")).json() as {
      consecutive_days: number;
      checked_in_today: boolean;
      reward: number;
    };
    expect(status).toMatchObject({ consecutive_days: 0, checked_in_today: false, reward: 10 });
    const restarted = await visitor.post("/api/Users/checkin/");
    expect(restarted.json()).toEqual({ consecutive_days: 1, total_days: 8, gold: 120, reward: 10 });
    const profile = (await new Visitor(api.app).get(`/api/Users/profile/${user.username}/`)).json() as Record<string, number>;
    expect(profile).toMatchObject({ consecutive_checkin_days: 1, total_checkin_days: 8 });
    expect([rewardForStreak(1), rewardForStreak(6), rewardForStreak(30)]).toEqual([10, 20, 20]);
  });

  it("gives exactly one row and one ledger transaction to a concurrent double check-in", async () => {
    now = new Date("2026-05-01T02:00:00Z");
    const { user, visitor } = await member();
    const answers = await Promise.all([
      visitor.post("/api/Users/checkin/"),
      visitor.post("/api/Users/checkin/"),
      visitor.post("/api/Users/checkin/"),
    ]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409, 409]);
    expect(await api.database.db.select().from(checkins).where(eq(checkins.userId, user.id))).toHaveLength(1);
    expect(
      await api.database.db
        .select()
        .from(ledgerTransactions)
        .where(eq(ledgerTransactions.idempotencyKey, `checkin:${user.id}:2026-05-01`)),
    ).toHaveLength(1);
    const [row] = await api.database.db.select({ gold: users.gold }).from(users).where(eq(users.id, user.id));
    expect(row!.gold).toBe(10);
    expect(await ledgerBalance(api.database.db, { userId: user.id, currency: "gold" })).toBe(10);
  });

  it("keeps the ledger balanced: every transaction sums to zero and cached gold equals the entries", async () => {
    expect(await unbalancedLedgerTransactions(api.database.db)).toEqual([]);
    const all = await api.database.db.select({ id: users.id, gold: users.gold }).from(users);
    let issued = 0;
    for (const user of all) {
      expect(await ledgerBalance(api.database.db, { userId: user.id, currency: "gold" })).toBe(user.gold);
      issued += user.gold;
    }
    expect(await ledgerBalance(api.database.db, checkinRewardsAccount)).toBe(-issued);
  });

  it("asks visitors to log in", async () => {
    const response = await new Visitor(api.app, { "accept-language": "zh-CN" }).post("/api/Users/checkin/");
    expect(response.statusCode).toBe(401);
    expect((response.json() as { message: string }).message).toBe("请先登录。");
  });
});
