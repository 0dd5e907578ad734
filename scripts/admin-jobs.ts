import os from "node:os";
import path from "node:path";
import pino from "pino";
import type { DatabaseHandle } from "../server/db/client.ts";
import { LocalFileStore } from "../features/attachments/file-store.server.ts";
import { JobQueue } from "../features/jobs/queue.ts";
import { recordAudit } from "../features/admin/audit.ts";
import { failedJobs, jobSchedules, recentJobRuns, retryFailedJob, type JobRun } from "../features/jobs/admin.ts";

function describeRun(run: JobRun): string {
  const error = run.error ? `  ${run.error.split("\n")[0]}` : "";
  const summary = run.summary
    ? run.summary
        .split("\n")
        .map((line) => `\n      ${line}`)
        .join("")
    : "";
  return `${run.startedAt.toISOString()}  ${run.job}  ${run.outcome} (attempt ${run.attempt}, ${run.durationMs} ms)  ${run.jobId}${error}${summary}`;
}

/**
 * `npm run admin -- jobs`: the schedules with their last run, the recent runs and the jobs that
 * failed for good; `npm run admin -- jobs retry <job id>` puts a failed one back on its queue.
 */
export async function jobsCommand(database: DatabaseHandle, args: string[], print = console.log): Promise<number> {
  const { db } = database;
  if (args[0] === "retry") {
    // A queue that only sends (no workers): the running servers' workers pick the job up.
    const queue = await new JobQueue({
      database,
      files: new LocalFileStore(path.join(os.tmpdir(), "circles-admin-unused")),
      log: pino({ level: "warn" }),
    }).start();
    try {
      const retried = await retryFailedJob(db, queue, args[1]!);
      if (retried) await recordAudit(db, "cli", { action: "job.retry", target: `job:${args[1]}`, reason: "command line" });
      print(retried ? `job ${args[1]} is queued again` : `no failed job ${args[1]}`);
      return retried ? 0 : 1;
    } finally {
      await queue.stop();
    }
  }
  print("Schedules:");
  for (const schedule of await jobSchedules(db)) {
    const last = schedule.lastRun ? describeRun(schedule.lastRun) : "never run";
    print(`  ${schedule.name}  ${schedule.schedule}  last: ${last}`);
  }
  print("Recent runs:");
  for (const run of await recentJobRuns(db)) print(`  ${describeRun(run)}`);
  const failed = await failedJobs(db);
  print(failed.length > 0 ? "Failed (retry with: npm run admin -- jobs retry <job id>):" : "Failed: none");
  for (const run of failed) print(`  ${describeRun(run)}`);
  return 0;
}
