import { eq, sql } from "drizzle-orm";
import type { Database } from "../../server/db/client.ts";
import { writings } from "../../server/db/schema/index.ts";
import type { HotMember } from "../subjects/hot.ts";

/**
 * A writing's stored Hot score (`writings.hot_score`, the `writings_hot_score` trigger over
 * `engagement_hot_score`): touching the row scores it again; the recompute recounts comments from
 * the table on the way (so a count the handlers could not see change, such as a deleted account's
 * comments, is right again within the hour), by id range, each batch its own short transaction.
 */
export const writingHot: HotMember = {
  async rescore(tx, id) {
    await tx.db
      .update(writings)
      .set({ commentCount: sql`${writings.commentCount}` })
      .where(eq(writings.id, id));
  },
  async recompute(db: Database, batch) {
    const [range] = await db.select({ last: sql<number>`coalesce(max(${writings.id}), 0)`.mapWith(Number) }).from(writings);
    for (let from = 0; from <= (range?.last ?? 0); from += batch) {
      // Setting comment_count fires the writings_hot_score trigger, which scores the row for the clock's instant.
      await db.execute(sql`
        update writings w set comment_count = coalesce(
          (select count(*)::integer from comments c where c.subject_type = 'writing' and c.subject_id = w.id and c.deleted_at is null and c.hidden_at is null), 0)
        where w.id > ${from} and w.id <= ${from + batch}`);
    }
  },
};
