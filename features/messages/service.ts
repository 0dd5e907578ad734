import { eq, sql } from "drizzle-orm";
import type { Database } from "../../server/db/client.ts";
import { preparedQuery } from "../../server/lib/prepared.ts";
import { inTransaction, type Transaction } from "../../server/lib/transactions.ts";
import { emit } from "../events/bus.ts";
import { unreadCounters } from "../../server/db/schema/index.ts";
import { counterCategories, readCategories, zeroUnread, type ColumnCounter, type ReadCategory, type UnreadCounts } from "./schema.ts";
import { markNotificationsRead, unreadByCategory, type NotificationCategory } from "./notifications.ts";
import { unreadMemory, unreadTag } from "./unread-memory.ts";

/** The counters kept in a column of `unread_counters`; the others are counted from notifications. */
const columns = {
  unread_announcement_count: "unreadAnnouncementCount",
  unread_private_chat: "unreadPrivateChat",
} as const satisfies Record<ColumnCounter, keyof typeof unreadCounters.$inferSelect>;

const unreadQuery = preparedQuery((db) =>
  db
    .select()
    .from(unreadCounters)
    .where(eq(unreadCounters.userId, sql.placeholder("user")))
    .prepare("messages_unread"),
);

/**
 * A user's counters, remembered between requests: every signed-in page and the clients' polling
 * read them. They are counted from the unread notifications (features/messages/notifications.ts),
 * except announcements and private chat, which keep their column in `unread_counters`; every
 * write invalidates `unreadTag(userId)` after commit.
 */
const remembered = unreadMemory;

export { unreadTag };

export async function getUnreadCounts(db: Database, userId: number): Promise<UnreadCounts> {
  const counts = await remembered.read(db, userId, async () => {
    const [[row], unread] = await Promise.all([unreadQuery(db).execute({ user: userId }), unreadByCategory(db, userId)]);
    const read = { ...zeroUnread };
    for (const name of Object.keys(read) as (keyof UnreadCounts)[]) {
      const categories = counterCategories[name];
      read[name] = categories
        ? categories.reduce((sum, category) => sum + (unread[category] ?? 0), 0)
        : (row?.[columns[name as ColumnCounter]] ?? 0);
    }
    return read;
  });
  // Callers get their own copy: the remembered one is shared.
  return { ...counts };
}

/** Raises one of a user's column counters (announcements, private chat) by `by` inside the use case's transaction. */
export async function bumpUnread(tx: Transaction, userId: number, counter: ColumnCounter, by = 1): Promise<void> {
  const column = unreadCounters[columns[counter]];
  await tx.db
    .insert(unreadCounters)
    .values({ userId, [columns[counter]]: by })
    .onConflictDoUpdate({ target: unreadCounters.userId, set: { [columns[counter]]: sql`${column} + ${by}` } });
  tx.invalidate(unreadTag(userId));
}

/** Zeroes the counters of one category (like-favorite zeroes both), with its event, in one transaction. */
export async function markCategoryRead(db: Database, userId: number, category: ReadCategory): Promise<void> {
  const set: Partial<typeof unreadCounters.$inferInsert> = {};
  const categories: NotificationCategory[] = [];
  for (const name of readCategories[category]) {
    const counted = counterCategories[name];
    if (counted) categories.push(...counted);
    else set[columns[name as ColumnCounter]] = 0;
  }
  await inTransaction({ db }, async (tx) => {
    if (Object.keys(set).length > 0) {
      await tx.db
        .insert(unreadCounters)
        .values({ userId, ...set })
        .onConflictDoUpdate({ target: unreadCounters.userId, set });
    }
    await markNotificationsRead(tx, userId, categories);
    await emit(tx, { verb: "user.messages_read", actorId: userId, subjectId: userId, data: { category } });
    tx.invalidate(unreadTag(userId));
  });
}
