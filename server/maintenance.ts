import type { FastifyBaseLogger } from "fastify";
import type { Database } from "./db/client.ts";
import { deleteExpiredSessions, deleteStaleSignupCounts } from "../features/accounts/service.ts";
import { deleteStaleLoginFailures } from "../features/accounts/throttle.server.ts";
import { deleteExpiredChallenges } from "../features/captcha/service.ts";
import { deleteStaleCodes } from "../features/verification/service.ts";
import { deleteExpiredResetTokens } from "../features/verification/password-reset.ts";
import { sweepOrphanedAttachments } from "../features/attachments/sweep.ts";
import { hotRecomputeDue, recomputeHotScores } from "../features/writings/hot.ts";
import { recomputeQuestionHotScores } from "../features/questions/hot.ts";
import type { FileStore } from "../features/attachments/file-store.server.ts";
import { refreshFormulaExcerpts } from "../features/writings/excerpts.ts";

/** Rows that only expire: ended sessions, spent sign-in puzzles, old failure counts, old codes and reset tokens. */
export async function sweepExpired(db: Database): Promise<void> {
  await deleteExpiredSessions(db);
  await deleteExpiredChallenges(db);
  await deleteStaleLoginFailures(db);
  await deleteStaleSignupCounts(db);
  await deleteStaleCodes(db);
  await deleteExpiredResetTokens(db);
}

/**
 * Sweeps and recomputes the Hot scores (features/writings/hot.ts, then features/questions/hot.ts) at start-up and then every hour;
 * the timer never keeps the process alive. At start-up the scores are recomputed only when the last
 * recompute is over an interval old (`hotRecomputeDue`). At start-up only, stored excerpts that still
 * show formulas as TeX get their rendered text (once: a second start finds nothing to change).
 */
export function startMaintenance(db: Database, files: FileStore, log: FastifyBaseLogger, everyMs = 60 * 60 * 1000): () => void {
  void refreshFormulaExcerpts(db).catch((err: unknown) => log.error({ err }, "excerpt refresh failed"));
  const run = async (startUp: boolean) => {
    await sweepExpired(db).catch((err: unknown) => log.error({ err }, "maintenance sweep failed"));
    await sweepOrphanedAttachments({ db, files }).catch((err: unknown) => log.error({ err }, "attachment sweep failed"));
    if (startUp && !(await hotRecomputeDue(db, everyMs).catch(() => true))) return;
    await recomputeHotScores(db).catch((err: unknown) => log.error({ err }, "Hot score recompute failed"));
    await recomputeQuestionHotScores(db).catch((err: unknown) => log.error({ err }, "question Hot score recompute failed"));
  };
  void run(true);
  const timer = setInterval(() => void run(false), everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
