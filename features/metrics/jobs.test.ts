import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq, sql } from "drizzle-orm";
import { createTestApi, type TestApi } from "../../tests/support/api.ts";
import { createCircle, createSignedInUser, createUser, createWriting } from "../../tests/support/factories.ts";
import { oneDatabaseKind } from "../../tests/support/database.ts";
import { dailyStats, events } from "../../server/db/schema/index.ts";
import { shanghaiDay } from "../../common/locale.ts";
import { jobSchedules } from "../jobs/admin.ts";
import { jobsCommand } from "../../scripts/admin-jobs.ts";
import { rebuildRollups } from "./rollups.ts";

/** The metrics' scheduled jobs: the daily rollup check and the event pruning (docs/features/metrics.md). */
describe.each(oneDatabaseKind)("metrics jobs on %s", (kind) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi(kind, { jobs: true });
  });
  afterAll(() => api.close());
  const db = () => api.database.db;

  it("checks the last days' rollups daily, failing the run with the differences in its history", async () => {
    expect((await jobSchedules(db())).filter((job) => ["rollup-check", "prune-events"].includes(job.name))).toMatchObject([
      { name: "rollup-check", schedule: "15 19 * * *" },
      { name: "prune-events", schedule: "30 19 * * *" },
    ]);
    const { visitor: reader } = await createSignedInUser(api.app, db());
    const writing = await createWriting(db(), await createUser(db()), { circleId: (await createCircle(db())).id });
    expect((await reader.request("PUT", `/api/subjects/writing/${writing.id}/reaction/`, { json: { reaction: "like" } })).statusCode).toBe(
      200,
    );
    const today = shanghaiDay();
    const [equal] = await api.jobs!.runJobNow("rollup-check");
    expect(equal).toMatchObject({ outcome: "completed", error: null });
    expect(equal!.summary).toMatch(new RegExp(`^rollups equal raw from \\d{4}-\\d{2}-\\d{2} to ${today}$`));

    await db()
      .update(dailyStats)
      .set({ likes: sql`${dailyStats.likes} + 2` })
      .where(and(eq(dailyStats.subjectType, "writing"), eq(dailyStats.subjectId, writing.id), eq(dailyStats.day, today)));
    const [spoiled] = await api.jobs!.runJobNow("rollup-check");
    // No retry: the same records would give the same answer.
    expect(spoiled!.outcome).toBe("failed");
    expect(spoiled!.summary).toContain(`${today} writing ${writing.id} likes: rollup 3, raw 1`);
    const printed: string[] = [];
    await jobsCommand(api.database, [], (line) => printed.push(line));
    const output = printed.join("\n");
    expect(output).toContain("rollup-check  15 19 * * *  last: ");
    expect(output).toContain(`${today} writing ${writing.id} likes: rollup 3, raw 1`);
    await rebuildRollups(db(), { from: today, to: today });
    expect((await api.jobs!.runJobNow("rollup-check"))[0]!.outcome).toBe("completed");
  });

  it("prunes old events daily and says how many went", async () => {
    const user = await createUser(db());
    await db()
      .insert(events)
      .values({
        actorId: user.id,
        verb: "reaction.added",
        subjectType: "writing",
        subjectId: 1,
        data: { reaction: "like" },
        createdAt: new Date(Date.now() - 500 * 86_400_000),
      });
    const [run] = await api.jobs!.runJobNow("prune-events");
    expect(run).toMatchObject({ outcome: "completed" });
    expect(run!.summary).toMatch(/^[1-9]\d* events pruned$/);
  });
});
