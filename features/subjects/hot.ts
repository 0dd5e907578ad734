import { sql } from "drizzle-orm";
import type { Database, Executor } from "../../server/db/client.ts";
import type { Transaction } from "../../server/lib/transactions.ts";
import { invalidate } from "../../server/lib/invalidation.ts";
import { homeTag } from "../../server/lib/cache-tags.ts";
import { onEvent } from "../events/bus.ts";
import { kindsWith, subjectKind } from "./registry.ts";
import { isSubjectType } from "./types.ts";

/**
 * Hot scores (docs/features/interactions.md, "Hot"): a kind that keeps a stored score declares
 * `hot` in its registration; its own migration holds the column and the trigger that scores a row
 * whenever it is touched. This file is the generic half: the interactions that move a score and
 * the hourly recompute run over every kind that declares it, so neither keeps a list of kinds.
 */
export interface HotMember {
  /**
   * Scores again, in the interaction's transaction, what an interaction on this subject moves: the
   * services change `subject_counts` before they emit, and touching the row makes its trigger read
   * them (an answer's likes move its question).
   */
  rescore(tx: Transaction, id: number): Promise<void>;
  /** Recounts what the handlers could not see and scores every row for the Hot clock's instant, in batches of `batch` ids (each its own short transaction). */
  recompute?(db: Database, batch: number): Promise<void>;
}

/** Rows recomputed per transaction: each holds its rows' locks for milliseconds, not the whole table's. */
export const hotRecomputeBatch = 2_000;

/** Reactions, favourites and shares move the Hot score of whatever kind declares one. */
onEvent(["reaction.added", "reaction.changed", "reaction.removed", "favorite.added", "favorite.removed", "subject.shared"], {
  name: "subjects.hot_interaction",
  async inTransaction(tx, event) {
    if (!event.subjectType || !isSubjectType(event.subjectType)) return;
    await subjectKind(event.subjectType).hot?.rescore(tx, event.subjectId);
  },
});

/**
 * Whether the Hot clock is older than `everyMs`: a server that restarts within the hour keeps the
 * scores of the last recompute (the triggers keep every changed row current) instead of rewriting
 * every scored row at start-up (100k writings: a minute of work beside the first requests).
 */
export async function hotRecomputeDue(db: Executor, everyMs: number): Promise<boolean> {
  const result = await db.execute(
    sql`select coalesce((select reference_at < now() - make_interval(secs => ${everyMs / 1000}) from hot_clock where id = 1), true) as due`,
  );
  return (result as unknown as { rows: { due: boolean }[] }).rows[0]?.due !== false;
}

/**
 * Moves the Hot clock to now, then recomputes every kind's stored scores for that instant, kind by
 * kind in registration order (so every list compares at the same instant). The clock moves first,
 * in its own transaction: from then on the triggers score every changed row for the new instant,
 * and the batches bring the rest to it within seconds. Maintenance runs it every hour and at
 * start-up when due (`hotRecomputeDue`); the home feeds' cached pages are dropped afterwards.
 */
export async function recomputeHotScores(db: Database, batch = hotRecomputeBatch): Promise<void> {
  await db.execute(sql`update hot_clock set reference_at = now() where id = 1`);
  for (const kind of kindsWith("hot")) await kind.hot.recompute?.(db, batch);
  await invalidate([homeTag]);
}
