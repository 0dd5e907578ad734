import { sql } from "drizzle-orm";
import type { Database } from "../../server/db/client.ts";
import { invalidate } from "../../server/lib/invalidation.ts";
import { homeTag } from "../../server/lib/cache-tags.ts";

/**
 * Moves the Hot clock to now and recomputes every writing's stored score for that instant, in one
 * transaction (a Hot list never mixes scores of two instants). Comment counts are recounted from
 * the comments table on the way, so a count the handlers could not see change (a deleted author's
 * comments go with the account) is right again within the hour. Maintenance runs it at start-up
 * and every hour; the home feeds' cached pages are dropped afterwards.
 */
export async function recomputeHotScores(db: Database): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql`update hot_clock set reference_at = now() where id = 1`);
    // Setting comment_count fires the writings_hot_score trigger, which computes the score for the new instant.
    await tx.execute(sql`
      update writings w set comment_count = coalesce(counted.comments, 0)
      from writings plain
      left join (
        select subject_id, count(*)::integer as comments from comments
        where subject_type = 'writing' and deleted_at is null group by subject_id
      ) counted on counted.subject_id = plain.id
      where plain.id = w.id`);
  });
  await invalidate([homeTag]);
}
