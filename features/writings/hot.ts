import { sql } from "drizzle-orm";
import type { Database } from "../../server/db/client.ts";
import { books, writings } from "../../server/db/schema/index.ts";
import { invalidate } from "../../server/lib/invalidation.ts";
import { homeTag } from "../../server/lib/cache-tags.ts";

/** Writings recomputed per transaction: each holds its rows' locks for milliseconds, not the whole table's. */
export const hotRecomputeBatch = 2_000;

/**
 * Whether the Hot clock is older than `everyMs`: a server that restarts within the hour keeps the
 * scores of the last recompute (the trigger keeps every changed row current) instead of rewriting
 * every writing, book and question at start-up (100k writings: a minute of work beside the first
 * requests).
 */
export async function hotRecomputeDue(db: Database, everyMs: number): Promise<boolean> {
  const result = await db.execute(
    sql`select coalesce((select reference_at < now() - make_interval(secs => ${everyMs / 1000}) from hot_clock where id = 1), true) as due`,
  );
  return (result as unknown as { rows: { due: boolean }[] }).rows[0]?.due !== false;
}

/**
 * Moves the Hot clock to now and recomputes every writing's and book's stored score for that instant,
 * recounting comments from the comments table on the way (so a count the handlers could not see
 * change, such as a deleted account's comments, is right again within the hour). The clock moves
 * first, in its own transaction: from then on the trigger scores every changed writing for the
 * new instant, and the batches (by id range, each its own short transaction, so views and
 * comments never wait on the whole table) bring the rest to it within seconds. Maintenance runs
 * it every hour and at start-up when due (`hotRecomputeDue`); the home feeds' cached pages are dropped afterwards.
 */
export async function recomputeHotScores(db: Database, batch = hotRecomputeBatch): Promise<void> {
  await db.execute(sql`update hot_clock set reference_at = now() where id = 1`);
  const [range] = await db.select({ last: sql<number>`coalesce(max(${writings.id}), 0)`.mapWith(Number) }).from(writings);
  const last = range?.last ?? 0;
  for (let from = 0; from <= last; from += batch) {
    // Setting comment_count fires the writings_hot_score trigger, which scores the row for the clock's instant.
    await db.execute(sql`
      update writings w set comment_count = coalesce(
        (select count(*)::integer from comments c where c.subject_type = 'writing' and c.subject_id = w.id and c.deleted_at is null and c.hidden_at is null), 0)
      where w.id > ${from} and w.id <= ${from + batch}`);
  }
  // Books the same way (the books_hot_score trigger), after the writings.
  const [bookRange] = await db.select({ last: sql<number>`coalesce(max(${books.id}), 0)`.mapWith(Number) }).from(books);
  for (let from = 0; from <= (bookRange?.last ?? 0); from += batch) {
    await db.execute(sql`
      update books b set comment_count = coalesce(
        (select count(*)::integer from comments c where c.subject_type = 'book' and c.subject_id = b.id and c.deleted_at is null), 0)
      where b.id > ${from} and b.id <= ${from + batch}`);
  }
  await invalidate([homeTag]);
}
