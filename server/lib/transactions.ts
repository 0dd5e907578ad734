import type { Database, Executor } from "../db/client.ts";
import { invalidate } from "./invalidation.ts";

/**
 * A unit of work: the open transaction plus what must happen only once it has committed
 * (evicting cached pages, waking live connections). A use case that calls another passes its
 * `tx` along, so both commit or neither does.
 */
export interface Transaction {
  /** Query through this, never through the outer `db` (on PGlite that would wait on itself). */
  db: Executor;
  afterCommit(task: () => unknown): void;
  /** Evict cached pages carrying any of these tags once the change is visible. */
  invalidate(...tags: string[]): void;
}

/** What every service function takes first. */
export interface ServiceOptions {
  db: Database;
  /** Join this transaction instead of opening one. */
  tx?: Transaction;
}

/**
 * Runs `body` in the caller's transaction, or in a new one that commits, then runs the
 * after-commit tasks. Nothing slow (password hashing, Markdown rendering, image work) belongs in
 * `body`: on the embedded store one open transaction holds the whole process.
 */
export async function inTransaction<T>(options: ServiceOptions, body: (tx: Transaction) => Promise<T>): Promise<T> {
  if (options.tx) return body(options.tx);
  const tasks: (() => unknown)[] = [];
  const result = await options.db.transaction(async (executor) => {
    const tx: Transaction = {
      db: executor as Executor,
      afterCommit: (task) => tasks.push(task),
      invalidate: (...tags) => tasks.push(() => invalidate(tags)),
    };
    return body(tx);
  });
  for (const task of tasks) {
    try {
      await task();
    } catch (error) {
      // The change is committed; a failed side effect must not turn it into an error for the user.
      console.error("after-commit task failed", error);
    }
  }
  return result;
}
