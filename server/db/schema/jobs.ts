import { index, integer, pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";

/** How one attempt of a queued job ended: done, failed with attempts left, or failed for good (dead). */
export const jobOutcomes = ["completed", "retrying", "failed"] as const;
export type JobOutcome = (typeof jobOutcomes)[number];

/**
 * The run history of the job queue (features/jobs): one row per attempt of a job, written by the
 * worker when the attempt ends. The queue itself (pg-boss) keeps its jobs in its own `pgboss`
 * schema; this table is ours, so the admin area and `npm run admin -- jobs` read it without
 * depending on the library's tables. `job_id` is pg-boss's id (retrying a failed job names it).
 */
export const jobRuns = pgTable(
  "job_runs",
  {
    id: serial("id").primaryKey(),
    job: text("job").notNull(),
    jobId: text("job_id").notNull(),
    startedAt: timestamp("started_at", { withTimezone: true }).notNull(),
    finishedAt: timestamp("finished_at", { withTimezone: true }).notNull(),
    outcome: text("outcome", { enum: jobOutcomes }).notNull(),
    error: text("error"),
    attempt: integer("attempt").notNull(),
    /** What the attempt found, in words (a check's differences, how many rows a sweep removed); null when it said nothing. */
    summary: text("summary"),
  },
  (table) => [index("job_runs_job_idx").on(table.job, table.startedAt), index("job_runs_outcome_idx").on(table.outcome, table.startedAt)],
);
