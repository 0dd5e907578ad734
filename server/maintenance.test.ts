import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, databaseKinds, type TestDatabase } from "../tests/support/database.ts";
import { captchaChallenges, jobRuns, loginFailures, sessions, users } from "./db/schema/index.ts";
import { sweepExpired } from "./maintenance.ts";

describe.each(databaseKinds)("maintenance sweep on %s", (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(() => database.dispose());

  it("removes ended sessions, lapsed puzzles, old failure counts and old job runs, and keeps live ones", async () => {
    const { db } = database;
    const hourAgo = new Date(Date.now() - 60 * 60 * 1000);
    const inAnHour = new Date(Date.now() + 60 * 60 * 1000);
    const [user] = await db
      .insert(users)
      .values({
        username: "sweeper",
        nickname: "sweeper",
        email: "sweeper@example.com",
        passwordHash: "x",
        gender: "secret",
        birthday: "1990-01-01",
        country: "CN",
      })
      .returning();
    await db.insert(sessions).values([
      { tokenHash: "ended", userId: user!.id, persistent: false, expiresAt: hourAgo },
      { tokenHash: "live", userId: user!.id, persistent: true, expiresAt: inAnHour },
    ]);
    await db.insert(captchaChallenges).values([
      { tokenHash: "lapsed", targetX: 100, expiresAt: hourAgo },
      { tokenHash: "open", targetX: 100, expiresAt: inAnHour },
    ]);
    const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
    await db.insert(loginFailures).values([
      { key: "ip:old", failures: 3, windowStartedAt: twoHoursAgo, lastFailureAt: twoHoursAgo },
      { key: "ip:recent", failures: 3 },
    ]);

    const monthAgo = new Date(Date.now() - 31 * 24 * 60 * 60 * 1000);
    await db.insert(jobRuns).values([
      { job: "expire-payments", jobId: "old", startedAt: monthAgo, finishedAt: monthAgo, outcome: "completed", attempt: 1 },
      { job: "expire-payments", jobId: "recent", startedAt: hourAgo, finishedAt: hourAgo, outcome: "completed", attempt: 1 },
    ]);

    await sweepExpired(db);

    expect((await db.select({ key: sessions.tokenHash }).from(sessions)).map((row) => row.key)).toEqual(["live"]);
    expect((await db.select({ key: captchaChallenges.tokenHash }).from(captchaChallenges)).map((row) => row.key)).toEqual(["open"]);
    expect((await db.select({ key: loginFailures.key }).from(loginFailures)).map((row) => row.key)).toEqual(["ip:recent"]);
    expect((await db.select({ id: jobRuns.jobId }).from(jobRuns)).map((row) => row.id)).toEqual(["recent"]);
  });
});
