import { sql } from "drizzle-orm";
import { PgBoss, fromDrizzle, fromPglite, type Clock, type JobWithMetadata, type SendOptions } from "pg-boss";
import type { FastifyBaseLogger } from "fastify";
import type { DatabaseHandle } from "../../server/db/client.ts";
import { jobRuns, type JobOutcome } from "../../server/db/schema/index.ts";
import type { Transaction } from "../../server/lib/transactions.ts";
import type { FileStore } from "../attachments/file-store.server.ts";
import { countInstance } from "../../server/lib/single-instance.ts";
import { registeredJob, registeredJobs, type RegisteredJob } from "./registry.ts";

/**
 * The durable job queue: pg-boss over our own store (docs/features/platform.md, "Jobs", says why
 * pg-boss). On the embedded store it shares PGlite's one connection; on a PostgreSQL server it
 * keeps a small pool of its own. Jobs live in the `pgboss` schema, which pg-boss installs and
 * migrates itself on start; each attempt's outcome is written to our `job_runs`.
 */
countInstance("jobs/queue");

export const jobSchema = "pgboss";

export interface JobQueueOptions {
  database: DatabaseHandle;
  files: FileStore;
  log: FastifyBaseLogger;
  /** Run the registered jobs (the server). Off: only send, inspect and `runJobNow` (tests, scripts). */
  work?: boolean;
  /** A pg-boss TestClock, for tests that move time (schedules, retry back-off). */
  clock?: Clock;
}

export interface JobRunResult {
  jobId: string;
  outcome: JobOutcome;
  error: string | null;
  summary: string | null;
}

export class JobQueue {
  readonly boss: PgBoss;
  readonly #options: JobQueueOptions;

  constructor(options: JobQueueOptions) {
    this.#options = options;
    const connection = options.database.queueConnection;
    const work = options.work ?? false;
    const common = { schema: jobSchema, supervise: work, schedule: work, clock: options.clock, cronMonitorIntervalSeconds: 30 };
    this.boss =
      "embedded" in connection
        ? new PgBoss({ ...common, db: fromPglite(connection.embedded), backend: "pglite" })
        : new PgBoss({ ...common, connectionString: connection.url, max: 3, application_name: "circles-jobs" });
    this.boss.on("error", (err) => options.log.error({ err }, "job queue error"));
  }

  /** Installs or migrates the queue's schema, creates every registered queue and schedule, and starts the workers. */
  async start(): Promise<this> {
    await this.boss.start();
    const jobs = registeredJobs();
    for (const job of jobs) {
      const retry = { retryLimit: job.retry.limit, retryDelay: job.retry.delaySeconds, retryBackoff: job.retry.backoff };
      if (await this.boss.getQueue(job.name)) await this.boss.updateQueue(job.name, retry);
      else await this.boss.createQueue(job.name, retry);
    }
    if (this.#options.work) {
      // Schedules are rows every process writes alike; one gone from the registry is removed.
      for (const schedule of await this.boss.getSchedules()) {
        if (!jobs.some((job) => job.name === schedule.name && job.schedule)) await this.boss.unschedule(schedule.name, schedule.key);
      }
      for (const job of jobs) {
        if (job.schedule) await this.boss.schedule(job.name, job.schedule, {});
        await this.boss.work<object>(job.name, { includeMetadata: true, batchSize: 1, pollingIntervalSeconds: 2 }, async (batch) => {
          for (const attempt of batch) await this.#attempt(job, attempt as JobWithMetadata<object>, true);
        });
        if (job.atStartUp) await this.boss.send(job.name, job.atStartUp);
      }
    }
    return this;
  }

  async stop(): Promise<void> {
    await this.boss.stop({ graceful: true, timeout: 10_000 });
  }

  /** Enqueues a job outside any write (an admin action, a test). */
  async send(name: string, data: object = {}, options: SendOptions = {}): Promise<string | null> {
    registeredJob(name);
    return this.boss.send(name, data, options);
  }

  /**
   * Runs now, in this call, every job of `name` that is due (after enqueueing one with `data`
   * unless `data` is null), recording each attempt like the worker does. Tests use it to "run the
   * job" deterministically; a second call finds nothing new to do unless the handler left work.
   */
  async runJobNow(name: string, data: object | null = {}): Promise<JobRunResult[]> {
    const job = registeredJob(name);
    if (data) await this.boss.send(name, data);
    const results: JobRunResult[] = [];
    for (;;) {
      const batch = await this.boss.fetch<object>(name, { includeMetadata: true, batchSize: 20 });
      if (batch.length === 0) return results;
      for (const attempt of batch) results.push(await this.#attempt(job, attempt, false));
    }
  }

  /** A failed (dead) job back to the queue, retries counted afresh. False when no failed job has this id. */
  async retryFailed(name: string, jobId: string): Promise<boolean> {
    registeredJob(name);
    // The declared type is empty; the response carries the count it changed.
    const response = (await this.boss.retry(name, jobId)) as { affected?: number };
    return (response.affected ?? 0) > 0;
  }

  /**
   * One attempt: runs the handler, records it in `job_runs`, and settles the job (the worker lets
   * pg-boss settle it by returning or throwing; `runJobNow` settles it itself). A failed attempt
   * with retries left goes back with its back-off; the last one leaves the job failed.
   */
  async #attempt(job: RegisteredJob, attempt: JobWithMetadata<object>, rethrow: boolean): Promise<JobRunResult> {
    const startedAt = new Date();
    const { database, files, log } = this.#options;
    let error: string | null = null;
    let summary: string | null = null;
    const report = (text: string) => {
      summary = text;
    };
    try {
      await job.run({ db: database.db, files, log, now: startedAt, report }, attempt.data ?? {});
    } catch (cause) {
      error = cause instanceof Error ? (cause.stack ?? cause.message) : String(cause);
      log.error({ err: cause, job: job.name, jobId: attempt.id }, "job failed");
    }
    const outcome: JobOutcome = error === null ? "completed" : attempt.retryCount >= attempt.retryLimit ? "failed" : "retrying";
    await database.db.insert(jobRuns).values({
      job: job.name,
      jobId: attempt.id,
      startedAt,
      finishedAt: new Date(),
      outcome,
      error,
      attempt: attempt.retryCount + 1,
      summary,
    });
    if (rethrow) {
      if (error !== null) throw new Error(error.split("\n")[0]);
    } else if (error === null) await this.boss.complete(job.name, attempt.id);
    else await this.boss.fail(job.name, attempt.id, { message: error.split("\n")[0] });
    return { jobId: attempt.id, outcome, error, summary };
  }
}

/** The started queues, latest last: `enqueueJob` sends through the latest (a server has one; a test may start one inside another's). */
const started: JobQueue[] = [];

/** Starts this process's queue: `enqueueJob` sends through it until it stops. */
export async function startJobQueue(options: JobQueueOptions): Promise<JobQueue> {
  const queue = await new JobQueue(options).start();
  started.push(queue);
  return queue;
}

/** This process's running queue (the latest started), for the admin area's retry; undefined when none runs. */
export function currentJobQueue(): JobQueue | undefined {
  return started.at(-1);
}

export async function stopJobQueue(queue: JobQueue): Promise<void> {
  const index = started.indexOf(queue);
  if (index >= 0) started.splice(index, 1);
  await queue.stop();
}

/**
 * Enqueues a job in the caller's transaction: it exists when the write commits and never when
 * it rolls back. Call it from a service inside `inTransaction`.
 */
export async function enqueueJob(tx: Transaction, name: string, data: object = {}, options: SendOptions = {}): Promise<string | null> {
  const queue = started.at(-1);
  if (!queue) throw new Error(`no job queue is started in this process (enqueueing ${name})`);
  registeredJob(name);
  return queue.boss.send(name, data, { ...options, db: fromDrizzle(tx.db as unknown as Parameters<typeof fromDrizzle>[0], sql) });
}
