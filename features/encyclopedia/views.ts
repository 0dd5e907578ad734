import { eq, sql } from "drizzle-orm";
import { entryViews, encyclopediaEntries } from "../../server/db/schema/index.ts";
import { shanghaiDay } from "../../common/locale.ts";
import { inTransaction, type ServiceOptions } from "../../server/lib/transactions.ts";

/**
 * Counts a view of an entry once per visitor (the writings' key: the user, or the hashed visitor
 * cookie) and Asia/Shanghai day; only the insert that made the row raises the counter.
 * Cached pages are not evicted for a view (like writings and books).
 */
export async function recordEntryView(options: ServiceOptions, entryId: number, visitor: string, now: Date = new Date()): Promise<boolean> {
  return inTransaction(options, async (tx) => {
    const inserted = await tx.db
      .insert(entryViews)
      .values({ entryId, visitor, day: shanghaiDay(now) })
      .onConflictDoNothing()
      .returning({ entryId: entryViews.entryId });
    if (inserted.length === 0) return false;
    await tx.db
      .update(encyclopediaEntries)
      .set({ views: sql`${encyclopediaEntries.views} + 1` })
      .where(eq(encyclopediaEntries.id, entryId));
    return true;
  });
}
