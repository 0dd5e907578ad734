import type { FastifyBaseLogger } from "fastify";
import type { Database } from "./db/client.ts";
import { deleteExpiredSessions, deleteStaleSignupCounts } from "../features/accounts/service.ts";
import { deleteStaleLoginFailures } from "../features/accounts/throttle.server.ts";
import { deleteExpiredChallenges } from "../features/captcha/service.ts";

/** Rows that only expire: ended sessions, spent sign-in puzzles, old failure and sign-up counts. */
export async function sweepExpired(db: Database): Promise<void> {
  await deleteExpiredSessions(db);
  await deleteExpiredChallenges(db);
  await deleteStaleLoginFailures(db);
  await deleteStaleSignupCounts(db);
}

/** Sweeps at start-up and then every hour; the timer never keeps the process alive. */
export function startMaintenance(db: Database, log: FastifyBaseLogger, everyMs = 60 * 60 * 1000): () => void {
  const run = () => sweepExpired(db).catch((err: unknown) => log.error({ err }, "maintenance sweep failed"));
  void run();
  const timer = setInterval(run, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
