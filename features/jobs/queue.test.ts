import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import os from "node:os";
import path from "node:path";
import pino from "pino";
import { eq } from "drizzle-orm";
import { TestClock } from "pg-boss";
import { createTestDatabase, databaseKinds, type TestDatabase } from "../../tests/support/database.ts";
import { jobRuns } from "../../server/db/schema/index.ts";
import { inTransaction } from "../../server/lib/transactions.ts";
import { LocalFileStore } from "../attachments/file-store.server.ts";
import { defineTestJob } from "./registry.ts";
import { enqueueJob, JobQueue, startJobQueue, stopJobQueue } from "./queue.ts";
import { failedJobs, jobSchedules, retryFailedJob } from "./admin.ts";
import { jobsCommand } from "../../scripts/admin-jobs.ts";
import { createTestApi } from "../../tests/support/api.ts";

const log = pino({ level: "silent" });
const files = new LocalFileStore(path.join(os.tmpdir(), "circles-jobs-test"));
const seen: object[] = [];
let failing = true;
let ticks = 0;

defineTestJob<{ n: number }>({
  name: "test-echo",
  async run(_context, data) {
    seen.push(data);
  },
});
defineTestJob({
  name: "test-flaky",
  retry: { limit: 2, delaySeconds: 30, backoff: true },
  async run() {
    if (failing) throw new Error("the provider is down");
  },
});
defineTestJob({
  name: "test-tick",
  schedule: "*/5 * * * *",
  async run() {
    ticks += 1;
  },
});

describe.each(databaseKinds)("job queue on %s", (kind) => {
  let database: TestDatabase;
  let queue: JobQueue;
  // A minute past the next hour: never behind the database's own time, which stamps a job sent in a
  // write's transaction (a fixed morning failed once the real day passed it).
  const clock = new TestClock(Math.ceil(Date.now() / 3_600_000) * 3_600_000 + 60_000);
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    queue = await startJobQueue({ database, files, log, clock });
  });
  afterAll(async () => {
    await stopJobQueue(queue);
    await database.dispose();
  });
  afterEach(() => {
    seen.length = 0;
  });

  it("enqueues a job with the write that causes it: committed with it, gone when it rolls back", async () => {
    await inTransaction({ db: database.db }, async (tx) => {
      await enqueueJob(tx, "test-echo", { n: 1 });
    });
    await expect(
      inTransaction({ db: database.db }, async (tx) => {
        await enqueueJob(tx, "test-echo", { n: 2 });
        throw new Error("the write fails");
      }),
    ).rejects.toThrow("the write fails");

    const results = await queue.runJobNow("test-echo", null);
    expect(results.map((result) => result.outcome)).toEqual(["completed"]);
    expect(seen).toEqual([{ n: 1 }]);
    expect(await queue.runJobNow("test-echo", null)).toEqual([]);
  });

  it("retries a failing job with back-off, then leaves it failed with its error in the history; an admin retry runs it again", async () => {
    failing = true;
    const [first] = await queue.runJobNow("test-flaky");
    expect(first!.outcome).toBe("retrying");
    // The retry waits for its back-off: nothing is due yet.
    expect(await queue.runJobNow("test-flaky", null)).toEqual([]);
    await clock.tick(10 * 60_000);
    expect((await queue.runJobNow("test-flaky", null)).map((result) => result.outcome)).toEqual(["retrying"]);
    await clock.tick(10 * 60_000);
    expect((await queue.runJobNow("test-flaky", null)).map((result) => result.outcome)).toEqual(["failed"]);
    await clock.tick(10 * 60_000);
    expect(await queue.runJobNow("test-flaky", null)).toEqual([]);

    const runs = await database.db.select().from(jobRuns).where(eq(jobRuns.jobId, first!.jobId)).orderBy(jobRuns.id);
    expect(runs.map((run) => [run.attempt, run.outcome])).toEqual([
      [1, "retrying"],
      [2, "retrying"],
      [3, "failed"],
    ]);
    expect(runs.every((run) => run.error?.includes("the provider is down") && run.finishedAt >= run.startedAt)).toBe(true);
    expect((await failedJobs(database.db)).map((job) => job.jobId)).toContain(first!.jobId);

    failing = false;
    expect(await retryFailedJob(database.db, queue, first!.jobId)).toBe(true);
    expect((await queue.runJobNow("test-flaky", null)).map((result) => result.outcome)).toEqual(["completed"]);
    expect((await failedJobs(database.db)).map((job) => job.jobId)).not.toContain(first!.jobId);
    expect(await retryFailedJob(database.db, queue, first!.jobId)).toBe(false);
  });

  it("runs the product's jobs on demand: the payment expiry and the maintenance (at start-up and hourly)", async () => {
    for (const [name, data] of [
      ["expire-payments", {}],
      ["hourly-maintenance", { startUp: true }],
      ["hourly-maintenance", {}],
      ["refresh-formula-excerpts", {}],
    ] as const) {
      expect((await queue.runJobNow(name, data)).map((result) => [result.outcome, result.error])).toEqual([["completed", null]]);
    }
  });

  it("runs a job on an API test's own app when the test asks for a queue", async () => {
    const api = await createTestApi(kind, { jobs: true });
    try {
      expect((await api.jobs!.runJobNow("expire-payments")).map((result) => result.outcome)).toEqual(["completed"]);
    } finally {
      await api.close();
    }
  });

  it("lists every schedule with its last run", async () => {
    const schedules = await jobSchedules(database.db);
    expect(schedules.find((schedule) => schedule.name === "expire-payments")).toMatchObject({
      schedule: "* * * * *",
      lastRun: { outcome: "completed", error: null },
    });
    expect(schedules.find((schedule) => schedule.name === "hourly-maintenance")).toMatchObject({ schedule: "0 * * * *" });

    const printed: string[] = [];
    expect(await jobsCommand(database, [], (line) => printed.push(line))).toBe(0);
    expect(printed[0]).toBe("Schedules:");
    expect(printed.some((line) => line.includes("expire-payments  * * * * *  last: ") && line.includes("completed"))).toBe(true);
    expect(printed).toContain("Recent runs:");
  });
});

describe.runIf(databaseKinds.includes("postgres"))("a schedule across two processes", () => {
  let database: TestDatabase;
  const queues: JobQueue[] = [];
  beforeAll(async () => {
    database = await createTestDatabase("postgres");
  });
  afterAll(async () => {
    for (const queue of queues) await queue.stop();
    await database.dispose();
  });

  it("runs once per period however many servers run the workers", async () => {
    const clock = new TestClock(Date.parse("2026-12-07T10:04:40Z"));
    for (let instance = 0; instance < 2; instance++) queues.push(await new JobQueue({ database, files, log, clock, work: true }).start());
    ticks = 0;
    // Past 10:05: both instances' schedule monitors and workers fire; the occurrence is sent and run once.
    for (let step = 0; step < 4; step++) await clock.tick(15_000);
    for (const queue of queues) await queue.runJobNow("test-tick", null);
    expect(ticks).toBe(1);
    const runs = await database.db.select().from(jobRuns).where(eq(jobRuns.job, "test-tick"));
    expect(runs.map((run) => run.outcome)).toEqual(["completed"]);
  });
});
