import { sql } from "drizzle-orm";
import type { Database } from "../../server/db/client.ts";
import { inTransaction } from "../../server/lib/transactions.ts";
import { emit } from "../events/bus.ts";
import { counterCategories, readCategories, zeroUnread, type ReadCategory, type UnreadCounts } from "./schema.ts";
import { markAllChatsRead } from "../chats/service.ts";
import { markAnnouncementsRead, unreadAnnouncementCount } from "./announcements.ts";
import { markNotificationsRead, type NotificationCategory } from "./notifications.ts";
import { unreadMemory, unreadTag } from "./unread-memory.ts";
import { formatEventId } from "./event-id.ts";

interface UnreadRow {
  announcements_read_id: string | number | null;
  read_version: string | number | null;
  newest_notification: string | number;
  newest_chat: string | number;
  chats: number;
  muted: string[];
  unread: Partial<Record<NotificationCategory, number>>;
}

/**
 * Everything the counters are made of in one round trip (the live stream asks on every push):
 * the unread notifications per category (their partial index), the unread private messages, the
 * muted categories, the last announcement read, the counters' version (below) and where a live
 * stream starts (the newest notification of the user's and the newest private message).
 */
async function readUnread(db: Database, userId: number): Promise<UnreadRow> {
  const result = await db.execute(sql`
    select
      (select announcements_read_id from unread_counters where user_id = ${userId}) as announcements_read_id,
      (select max(id) from events where actor_id = ${userId} and verb = 'user.messages_read') as read_version,
      (select coalesce(max(id), 0) from notifications where recipient_id = ${userId}) as newest_notification,
      (select coalesce(max(id), 0) from chat_messages) as newest_chat,
      (select count(*) from chat_messages where recipient_id = ${userId} and read_at is null)::int as chats,
      (select coalesce(json_agg(category), '[]'::json) from message_mutes where user_id = ${userId}) as muted,
      (select coalesce(json_object_agg(category, n), '{}'::json)
         from (select category, count(*)::int as n from notifications
               where recipient_id = ${userId} and read_at is null group by category) unread) as unread`);
  return (result as unknown as { rows: UnreadRow[] }).rows[0]!;
}

/**
 * A user's counters, remembered between requests: every signed-in page and the clients' polling
 * read them. They are counted from the unread notifications (features/messages/notifications.ts)
 * and the unread private messages (features/chats/service.ts); muted categories count nothing.
 * Every write invalidates `unreadTag(userId)` after commit. Announcements are counted apart, from
 * the site's newest announcement ids (remembered until the next one is published).
 */
const remembered = unreadMemory;

export { unreadTag };

/**
 * The counters with their version: the id of the user's newest `user.messages_read` event seen by
 * the same read. A category read raises it in its own transaction, so a snapshot read before the
 * read committed carries a smaller version than the read's zeroes: the browser keeps the newer
 * (tabs hear counters from the stream, the channel and the page's loader in any order).
 */
export interface UnreadSnapshot {
  counts: UnreadCounts;
  version: number;
  /** Where a page rendered now starts the user's live stream (see `RememberedUnread.liveFrom`). */
  liveFrom: string;
}

/** The response header carrying the counters' version on `get_unread` and `read_meg`. */
export const unreadVersionHeader = "x-unread-version";

export async function getUnreadCounts(db: Database, userId: number): Promise<UnreadCounts> {
  return (await getUnreadSnapshot(db, userId)).counts;
}

export async function getUnreadSnapshot(db: Database, userId: number): Promise<UnreadSnapshot> {
  const known = await remembered.read(db, userId, async () => {
    const row = await readUnread(db, userId);
    const muted = new Set(row.muted);
    const unread = row.unread;
    const counts = { ...zeroUnread };
    for (const name of Object.keys(counts) as (keyof UnreadCounts)[]) {
      const categories = counterCategories[name];
      if (categories)
        counts[name] = categories.reduce((sum, category) => sum + (muted.has(category) ? 0 : Number(unread[category] ?? 0)), 0);
    }
    counts.unread_private_chat = Number(row.chats);
    return {
      counts,
      announcementsReadId: Number(row.announcements_read_id ?? 0),
      announcementsMuted: muted.has("announcements"),
      version: Number(row.read_version ?? 0),
      liveFrom: formatEventId({ notification: Number(row.newest_notification), chat: Number(row.newest_chat) }),
    };
  });
  // Callers get their own copy: the remembered one is shared.
  const counts = { ...known.counts };
  if (!known.announcementsMuted) counts.unread_announcement_count = await unreadAnnouncementCount(db, known.announcementsReadId);
  return { counts, version: known.version, liveFrom: known.liveFrom };
}

/**
 * Zeroes the counters of one category (like-favorite zeroes both), with its event, in one
 * transaction. Answers the counters' new version (the event's id, see `getUnreadSnapshot`).
 */
export async function markCategoryRead(db: Database, userId: number, category: ReadCategory): Promise<number> {
  const categories: NotificationCategory[] = readCategories[category].flatMap((name) => counterCategories[name] ?? []);
  return inTransaction({ db }, async (tx) => {
    if (category === "announcements") await markAnnouncementsRead(tx, userId);
    if (category === "private-chat") await markAllChatsRead(tx, userId);
    await markNotificationsRead(tx, userId, categories);
    const version = await emit(tx, { verb: "user.messages_read", actorId: userId, subjectId: userId, data: { category } });
    tx.invalidate(unreadTag(userId));
    return version;
  });
}
