import { eq, sql } from "drizzle-orm";
import type { Database } from "../../server/db/client.ts";
import { preparedQuery } from "../../server/lib/prepared.ts";
import { inTransaction } from "../../server/lib/transactions.ts";
import { emit } from "../events/bus.ts";
import { unreadCounters } from "../../server/db/schema/index.ts";
import { counterCategories, readCategories, zeroUnread, type ReadCategory, type UnreadCounts } from "./schema.ts";
import { markAllChatsRead, unreadChatCount } from "../chats/service.ts";
import { markAnnouncementsRead, unreadAnnouncementCount } from "./announcements.ts";
import { mutedCategories } from "./preferences.ts";
import { markNotificationsRead, unreadByCategory, type NotificationCategory } from "./notifications.ts";
import { unreadMemory, unreadTag } from "./unread-memory.ts";

const unreadQuery = preparedQuery((db) =>
  db
    .select({ announcementsReadId: unreadCounters.announcementsReadId })
    .from(unreadCounters)
    .where(eq(unreadCounters.userId, sql.placeholder("user")))
    .prepare("messages_unread"),
);

/**
 * A user's counters, remembered between requests: every signed-in page and the clients' polling
 * read them. They are counted from the unread notifications (features/messages/notifications.ts)
 * and the unread private messages (features/chats/service.ts); muted categories count nothing.
 * Every write invalidates `unreadTag(userId)` after commit. Announcements are counted apart, from
 * the site's newest announcement ids (remembered until the next one is published).
 */
const remembered = unreadMemory;

export { unreadTag };

export async function getUnreadCounts(db: Database, userId: number): Promise<UnreadCounts> {
  const known = await remembered.read(db, userId, async () => {
    const [[row], unread, chats, muted] = await Promise.all([
      unreadQuery(db).execute({ user: userId }),
      unreadByCategory(db, userId),
      unreadChatCount(db, userId),
      mutedCategories(db, userId),
    ]);
    const counts = { ...zeroUnread };
    for (const name of Object.keys(counts) as (keyof UnreadCounts)[]) {
      const categories = counterCategories[name];
      if (categories)
        counts[name] = categories.reduce(
          (sum, category) => sum + ((muted as ReadonlySet<string>).has(category) ? 0 : (unread[category] ?? 0)),
          0,
        );
    }
    counts.unread_private_chat = chats;
    return { counts, announcementsReadId: row?.announcementsReadId ?? 0, announcementsMuted: muted.has("announcements") };
  });
  // Callers get their own copy: the remembered one is shared.
  const counts = { ...known.counts };
  if (!known.announcementsMuted) counts.unread_announcement_count = await unreadAnnouncementCount(db, known.announcementsReadId);
  return counts;
}

/** Zeroes the counters of one category (like-favorite zeroes both), with its event, in one transaction. */
export async function markCategoryRead(db: Database, userId: number, category: ReadCategory): Promise<void> {
  const categories: NotificationCategory[] = readCategories[category].flatMap((name) => counterCategories[name] ?? []);
  await inTransaction({ db }, async (tx) => {
    if (category === "announcements") await markAnnouncementsRead(tx, userId);
    if (category === "private-chat") await markAllChatsRead(tx, userId);
    await markNotificationsRead(tx, userId, categories);
    await emit(tx, { verb: "user.messages_read", actorId: userId, subjectId: userId, data: { category } });
    tx.invalidate(unreadTag(userId));
  });
}
