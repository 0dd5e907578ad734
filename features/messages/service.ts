import { eq, sql } from "drizzle-orm";
import type { Database } from "../../server/db/client.ts";
import { preparedQuery } from "../../server/lib/prepared.ts";
import { unreadCounters } from "../../server/db/schema/index.ts";
import { readCategories, zeroUnread, type ReadCategory, type UnreadCounts } from "./schema.ts";

const columns = {
  answer_count: "answerCount",
  unread_comment_count: "unreadCommentCount",
  unread_replies: "unreadReplies",
  unread_announcement_count: "unreadAnnouncementCount",
  unread_sysmeg_count: "unreadSysmegCount",
  unread_like_count: "unreadLikeCount",
  unread_favorite_count: "unreadFavoriteCount",
  unread_follow_count: "unreadFollowCount",
  unread_private_chat: "unreadPrivateChat",
} as const satisfies Record<keyof UnreadCounts, keyof typeof unreadCounters.$inferSelect>;

const unreadQuery = preparedQuery((db) => db.select().from(unreadCounters).where(eq(unreadCounters.userId, sql.placeholder("user"))).prepare("messages_unread"));

export async function getUnreadCounts(db: Database, userId: number): Promise<UnreadCounts> {
  const [row] = await unreadQuery(db).execute({ user: userId });
  if (!row) return { ...zeroUnread };
  const counts = { ...zeroUnread };
  for (const [name, column] of Object.entries(columns) as [keyof UnreadCounts, (typeof columns)[keyof UnreadCounts]][]) {
    counts[name] = row[column];
  }
  return counts;
}

/** Zeroes the counters of one category (like-favorite zeroes both). */
export async function markCategoryRead(db: Database, userId: number, category: ReadCategory): Promise<void> {
  const set: Partial<typeof unreadCounters.$inferInsert> = {};
  for (const name of readCategories[category]) set[columns[name]] = 0;
  await db.insert(unreadCounters).values({ userId, ...set }).onConflictDoUpdate({ target: unreadCounters.userId, set });
}
