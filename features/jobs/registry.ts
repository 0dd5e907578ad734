import type { FastifyBaseLogger } from "fastify";
import type { Database } from "../../server/db/client.ts";
import type { FileStore } from "../attachments/file-store.server.ts";
import { countInstance } from "../../server/lib/single-instance.ts";

/**
 * The registry of job kinds: every background job, scheduled or enqueued by a write, is declared
 * once with `defineJob` in its feature's `jobs.ts` (loaded by features/registrations.ts), and the
 * queue (features/jobs/queue.ts) creates its queue, its schedule and its worker from here.
 */
countInstance("jobs/registry");

/** What a job's handler is given. */
export interface JobContext {
  db: Database;
  files: FileStore;
  log: FastifyBaseLogger;
  /** The time the run started (a handler judges "expired" against this, not its own clock). */
  now: Date;
  /**
   * Records what the attempt found in its run history (`job_runs.summary`, shown by
   * `npm run admin -- jobs`), also when it then fails: a check's differences, a sweep's count.
   * A later call replaces an earlier one.
   */
  report(summary: string): void;
}

export interface JobRetry {
  /** Attempts after the first; once spent, the job is failed for good (the dead state). */
  limit: number;
  /** Seconds before the first retry; doubled each time when `backoff` (with jitter). */
  delaySeconds: number;
  backoff: boolean;
}

export interface JobDefinition<Data extends object = Record<string, never>> {
  /** The queue's name: lowercase words with hyphens, unique. */
  name: string;
  /** A cron expression (UTC) when the job runs on a schedule: exactly one run per period across every process. */
  schedule?: string;
  /** Enqueued once when a worker starts, with this data (work a restart should not wait an hour for). */
  atStartUp?: Data;
  /** Must be idempotent: a retried or repeated run changes nothing a first run already did. */
  run(context: JobContext, data: Data): Promise<void>;
  retry?: Partial<JobRetry>;
}

export interface RegisteredJob extends JobDefinition<object> {
  retry: JobRetry;
}

const defaultRetry: JobRetry = { limit: 3, delaySeconds: 30, backoff: true };
const jobs = new Map<string, RegisteredJob>();
let sealed = false;

export function defineJob<Data extends object = Record<string, never>>(definition: JobDefinition<Data>): JobDefinition<Data> {
  if (sealed) throw new Error(`job ${definition.name} defined after the registrations were sealed`);
  if (!/^[a-z][a-z0-9-]*$/.test(definition.name)) throw new Error(`job name ${definition.name} must be lowercase words with hyphens`);
  if (jobs.has(definition.name)) throw new Error(`job ${definition.name} defined twice`);
  jobs.set(definition.name, {
    ...(definition as unknown as JobDefinition<object>),
    retry: { ...defaultRetry, ...definition.retry },
  });
  return definition;
}

/** Called once by features/registrations.ts after every job file is loaded. */
export function sealJobs(): void {
  sealed = true;
}

export function registeredJobs(): RegisteredJob[] {
  if (!sealed) throw new Error("features/registrations.ts was not loaded: no job is registered");
  return [...jobs.values()];
}

export function registeredJob(name: string): RegisteredJob {
  const job = registeredJobs().find((candidate) => candidate.name === name);
  if (!job) throw new Error(`job ${name} is not registered`);
  return job;
}

/**
 * A job only a test defines (a handler that fails on purpose, say). Allowed after the seal and
 * replaces a job of the same name: test files share one module graph per worker and run their
 * suites once per database.
 */
export function defineTestJob<Data extends object = Record<string, never>>(definition: JobDefinition<Data>): void {
  if (!definition.name.startsWith("test-")) throw new Error(`a test job's name starts with "test-" (${definition.name})`);
  jobs.set(definition.name, { ...(definition as unknown as JobDefinition<object>), retry: { ...defaultRetry, ...definition.retry } });
}
