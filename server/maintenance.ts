import type { Database } from "./db/client.ts";
import { deleteExpiredSessions, deleteStaleSignupCounts } from "../features/accounts/service.ts";
import { deleteStaleLoginFailures } from "../features/accounts/throttle.server.ts";
import { deleteExpiredChallenges } from "../features/captcha/service.ts";
import { deleteStaleCodes } from "../features/verification/service.ts";
import { deleteExpiredResetTokens } from "../features/verification/password-reset.ts";
import { sweepOrphanedAttachments } from "../features/attachments/sweep.ts";
import { hotRecomputeDue, recomputeHotScores } from "../features/subjects/hot.ts";
import { refreshFormulaExcerpts } from "../features/writings/excerpts.ts";
import { defineJob } from "../features/jobs/registry.ts";
import { deleteOldJobRuns } from "../features/jobs/admin.ts";
import { deleteEndedRateLimitWindows } from "./rate-limit-store.ts";

const hourMs = 60 * 60 * 1000;

/** Rows that only expire: ended sessions, spent sign-in puzzles, old failure counts, old codes and reset tokens, job runs past the history's 30 days, ended rate-limit windows. */
export async function sweepExpired(db: Database): Promise<void> {
  await deleteExpiredSessions(db);
  await deleteExpiredChallenges(db);
  await deleteStaleLoginFailures(db);
  await deleteStaleSignupCounts(db);
  await deleteStaleCodes(db);
  await deleteExpiredResetTokens(db);
  await deleteOldJobRuns(db);
  await deleteEndedRateLimitWindows(db);
}

/**
 * Every hour (on the hour, and once when a worker starts): the sweeps above, the orphaned
 * attachment sweep, then the Hot scores of every kind that keeps one (features/subjects/hot.ts).
 * At start-up the scores are recomputed only when the last recompute is over an hour old
 * (`hotRecomputeDue`). Every step runs even when one before it failed; a failure fails the run
 * (so it is retried and kept in the run history). Each step is idempotent.
 */
export const hourlyMaintenanceJob = defineJob<{ startUp?: boolean }>({
  name: "hourly-maintenance",
  schedule: "0 * * * *",
  atStartUp: { startUp: true },
  retry: { limit: 2, delaySeconds: 60, backoff: true },
  async run({ db, files }, { startUp }) {
    const failures: string[] = [];
    const step = async (name: string, work: () => Promise<unknown>) => {
      await work().catch((err: unknown) => failures.push(`${name}: ${err instanceof Error ? err.message : String(err)}`));
    };
    await step("sweep", () => sweepExpired(db));
    await step("attachment sweep", () => sweepOrphanedAttachments({ db, files }));
    if (!startUp || (await hotRecomputeDue(db, hourMs).catch(() => true))) {
      await step("Hot scores", () => recomputeHotScores(db));
    }
    if (failures.length > 0) throw new Error(failures.join("; "));
  },
});

/** Once when a worker starts: stored excerpts that still show formulas as TeX get their rendered text (a second start finds nothing to change). */
export const refreshFormulaExcerptsJob = defineJob({
  name: "refresh-formula-excerpts",
  atStartUp: {},
  retry: { limit: 1, delaySeconds: 60, backoff: false },
  async run({ db }) {
    await refreshFormulaExcerpts(db);
  },
});
