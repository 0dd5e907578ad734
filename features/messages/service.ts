import { eq, sql } from "drizzle-orm";
import type { Database } from "../../server/db/client.ts";
import { preparedQuery } from "../../server/lib/prepared.ts";
import { keyedMemory } from "../../server/lib/keyed-memory.ts";
import { inTransaction, type Transaction } from "../../server/lib/transactions.ts";
import { emit } from "../events/bus.ts";
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

const unreadQuery = preparedQuery((db) =>
  db
    .select()
    .from(unreadCounters)
    .where(eq(unreadCounters.userId, sql.placeholder("user")))
    .prepare("messages_unread"),
);

/**
 * A user's counters, remembered between requests: every signed-in page and the clients' polling
 * read them. Every write goes through this module (`bumpUnread`, `markCategoryRead`), which
 * invalidates `unreadTag(userId)` after commit.
 */
const remembered = keyedMemory<UnreadCounts>("unread", { ttlMs: 30_000, maxEntries: 50_000 });

/** The tag a write of a user's unread counters invalidates. */
export const unreadTag = (userId: number): string => remembered.tag(userId);

export async function getUnreadCounts(db: Database, userId: number): Promise<UnreadCounts> {
  const counts = await remembered.read(db, userId, async () => {
    const [row] = await unreadQuery(db).execute({ user: userId });
    const read = { ...zeroUnread };
    if (!row) return read;
    for (const [name, column] of Object.entries(columns) as [keyof UnreadCounts, (typeof columns)[keyof UnreadCounts]][]) {
      read[name] = row[column];
    }
    return read;
  });
  // Callers get their own copy: the remembered one is shared.
  return { ...counts };
}

/** Raises one of a user's counters by `by` inside the use case's transaction (a follow, later a comment, a reply, a like…). */
export async function bumpUnread(tx: Transaction, userId: number, counter: keyof UnreadCounts, by = 1): Promise<void> {
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
  for (const name of readCategories[category]) set[columns[name]] = 0;
  await inTransaction({ db }, async (tx) => {
    await tx.db
      .insert(unreadCounters)
      .values({ userId, ...set })
      .onConflictDoUpdate({ target: unreadCounters.userId, set });
    await emit(tx, { verb: "user.messages_read", actorId: userId, subjectId: userId, data: { category } });
    tx.invalidate(unreadTag(userId));
  });
}
