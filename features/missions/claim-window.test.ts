import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { createTestDatabase, databaseKinds, type TestDatabase } from "../../tests/support/database.ts";
import { createUser } from "../../tests/support/factories.ts";
import { ledgerTransactions, missionGrants, missions } from "../../server/db/schema/index.ts";
import { presentViewer } from "../accounts/viewer.ts";
import { checkIn } from "../checkins/service.ts";
import { AppError } from "../../common/app-error.ts";
import { claimMission, closeMissionPeriods } from "./service.ts";

/** A finished period's unclaimed reward is claimable for 7 days after the period, once; not a moment longer. */
describe.each(databaseKinds)("the 7-day claim window on %s", (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(() => database.dispose());
  const db = () => database.db;
  const day = 86_400_000;

  const completedYesterday = async () => {
    const user = await createUser(db());
    const now = new Date();
    await checkIn({ db: db() }, user.id, new Date(now.getTime() - day));
    await closeMissionPeriods(db(), now);
    const [mission] = await db().select().from(missions).where(eq(missions.key, "daily_checkin"));
    const [grant] = await db()
      .select()
      .from(missionGrants)
      .where(and(eq(missionGrants.userId, user.id), eq(missionGrants.missionId, mission!.id)));
    expect(grant).toMatchObject({ status: "completed" });
    expect(grant!.claimableUntil.getTime()).toBe(grant!.periodEnd.getTime() + 7 * day);
    return { user, mission: mission!, grant: grant! };
  };
  const refusal = (promise: Promise<unknown>) =>
    promise.then(
      () => "paid",
      (error: unknown) => (error instanceof AppError ? error.code : String(error)),
    );

  it("pays in the window's last minute, once even to concurrent claims", async () => {
    const { user, mission, grant } = await completedYesterday();
    const lastMinute = new Date(grant.claimableUntil.getTime() - 60_000);
    const outcomes = await Promise.all(
      Array.from({ length: 5 }, () => refusal(claimMission({ db: db() }, presentViewer(user), mission.id, lastMinute))),
    );
    expect(outcomes.filter((outcome) => outcome === "paid")).toHaveLength(1);
    expect(outcomes.filter((outcome) => outcome !== "paid").every((outcome) => outcome === "not_completed")).toBe(true);
    const key = `mission:${mission.id}:${user.id}:${grant.periodStart.toISOString()}`;
    expect(await db().select().from(ledgerTransactions).where(eq(ledgerTransactions.idempotencyKey, key))).toHaveLength(1);
  });

  it("refuses the claim once the 7 days are over, and the period job then expires the grant", async () => {
    const { user, mission, grant } = await completedYesterday();
    expect(await refusal(claimMission({ db: db() }, presentViewer(user), mission.id, grant.claimableUntil))).toBe("not_completed");
    await closeMissionPeriods(db(), grant.claimableUntil);
    const [after] = await db().select().from(missionGrants).where(eq(missionGrants.id, grant.id));
    expect(after).toMatchObject({ status: "expired", claimedAt: null });
    expect(
      await refusal(claimMission({ db: db() }, presentViewer(user), mission.id, new Date(grant.claimableUntil.getTime() - 60_000))),
    ).toBe("not_completed");
  });
});
