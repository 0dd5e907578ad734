import { desc, eq, lt } from "drizzle-orm";
import type { Database } from "../../server/db/client.ts";
import { jobRuns, type JobOutcome } from "../../server/db/schema/index.ts";
import { registeredJobs } from "./registry.ts";
import type { JobQueue } from "./queue.ts";

/**
 * What the admin area and `npm run admin -- jobs` show of the job queue: the schedules with their
 * last run, the recent runs, the jobs that failed for good, and retrying one of those. All read
 * our run history (`job_runs`), not the library's tables.
 */
export interface JobRun {
  job: string;
  jobId: string;
  startedAt: Date;
  finishedAt: Date;
  durationMs: number;
  outcome: JobOutcome;
  error: string | null;
  attempt: number;
  /** What the attempt reported finding (`JobContext.report`). */
  summary: string | null;
}

export interface JobScheduleRow {
  name: string;
  schedule: string;
  lastRun: JobRun | null;
}

function present(row: typeof jobRuns.$inferSelect): JobRun {
  return {
    job: row.job,
    jobId: row.jobId,
    startedAt: row.startedAt,
    finishedAt: row.finishedAt,
    durationMs: row.finishedAt.getTime() - row.startedAt.getTime(),
    outcome: row.outcome,
    error: row.error,
    attempt: row.attempt,
    summary: row.summary,
  };
}

export async function jobSchedules(db: Database): Promise<JobScheduleRow[]> {
  const scheduled = registeredJobs().filter((job) => job.schedule);
  const rows = [];
  for (const job of scheduled) {
    const [last] = await db
      .select()
      .from(jobRuns)
      .where(eq(jobRuns.job, job.name))
      .orderBy(desc(jobRuns.startedAt), desc(jobRuns.id))
      .limit(1);
    rows.push({ name: job.name, schedule: job.schedule!, lastRun: last ? present(last) : null });
  }
  return rows;
}

export async function recentJobRuns(db: Database, limit = 20): Promise<JobRun[]> {
  return (await db.select().from(jobRuns).orderBy(desc(jobRuns.id)).limit(limit)).map(present);
}

/** Jobs whose last attempt failed with no retries left (the dead state), newest first. */
export async function failedJobs(db: Database, limit = 50): Promise<JobRun[]> {
  const latest = db.selectDistinctOn([jobRuns.jobId]).from(jobRuns).orderBy(jobRuns.jobId, desc(jobRuns.id)).as("latest");
  const rows = await db.select().from(latest).where(eq(latest.outcome, "failed")).orderBy(desc(latest.id)).limit(limit);
  return rows.map(present);
}

/** Puts a failed job back on its queue. False when the id names no job that failed for good. */
export async function retryFailedJob(db: Database, queue: JobQueue, jobId: string): Promise<boolean> {
  const [last] = await db.select().from(jobRuns).where(eq(jobRuns.jobId, jobId)).orderBy(desc(jobRuns.id)).limit(1);
  if (!last || last.outcome !== "failed") return false;
  return queue.retryFailed(last.job, jobId);
}

/** How long the run history keeps an attempt (the hourly maintenance deletes older ones). */
export const jobRunRetentionDays = 30;

export async function deleteOldJobRuns(db: Database, now = new Date()): Promise<void> {
  await db.delete(jobRuns).where(lt(jobRuns.startedAt, new Date(now.getTime() - jobRunRetentionDays * 24 * 60 * 60 * 1000)));
}
