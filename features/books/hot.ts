import { eq, sql } from "drizzle-orm";
import { books } from "../../server/db/schema/index.ts";
import type { HotMember } from "../subjects/hot.ts";

/**
 * A book's stored Hot score (`books.hot_score`, the `books_hot_score` trigger over
 * `engagement_hot_score`, aged from its last update), kept as a writing's is (features/writings/hot.ts).
 */
export const bookHot: HotMember = {
  async rescore(tx, id) {
    await tx.db
      .update(books)
      .set({ commentCount: sql`${books.commentCount}` })
      .where(eq(books.id, id));
  },
  async recompute(db, batch) {
    const [range] = await db.select({ last: sql<number>`coalesce(max(${books.id}), 0)`.mapWith(Number) }).from(books);
    for (let from = 0; from <= (range?.last ?? 0); from += batch) {
      await db.execute(sql`
        update books b set comment_count = coalesce(
          (select count(*)::integer from comments c where c.subject_type = 'book' and c.subject_id = b.id and c.deleted_at is null), 0)
        where b.id > ${from} and b.id <= ${from + batch}`);
    }
  },
};
