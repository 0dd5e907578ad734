import { createHash } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { bookViews, books } from "../../server/db/schema/index.ts";
import { shanghaiDay } from "../../common/locale.ts";
import { inTransaction, type ServiceOptions } from "../../server/lib/transactions.ts";

/**
 * Who counts as one visitor: a signed-in user by id; anybody else by a hash of their address and
 * browser (never stored in the clear).
 */
export function visitorKey(viewer: { id: number } | null, client: { ip: string; userAgent: string }): string {
  if (viewer) return `user:${viewer.id}`;
  return `anon:${createHash("sha256").update(`${client.ip}\n${client.userAgent}`).digest("base64url").slice(0, 32)}`;
}

/**
 * Counts a view of a book once per visitor per day (Asia/Shanghai): the (book, visitor, day) key
 * refuses the second row, so reloads and concurrent tabs add nothing. Returns whether it counted.
 * Cached pages are not evicted for a view: the count shown may lag by the cache's minute.
 */
export async function recordBookView(options: ServiceOptions, bookId: number, visitor: string, now: Date = new Date()): Promise<boolean> {
  return inTransaction(options, async (tx) => {
    const inserted = await tx.db
      .insert(bookViews)
      .values({ bookId, visitor, day: shanghaiDay(now) })
      .onConflictDoNothing()
      .returning({ bookId: bookViews.bookId });
    if (inserted.length === 0) return false;
    await tx.db
      .update(books)
      .set({ views: sql`${books.views} + 1` })
      .where(eq(books.id, bookId));
    return true;
  });
}
