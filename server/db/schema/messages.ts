import { integer, pgTable } from "drizzle-orm/pg-core";
import { users } from "./accounts.ts";

/** The nine unread counters of the message centre, one row per user. */
export const unreadCounters = pgTable("unread_counters", {
  userId: integer("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  answerCount: integer("answer_count").notNull().default(0),
  unreadCommentCount: integer("unread_comment_count").notNull().default(0),
  unreadReplies: integer("unread_replies").notNull().default(0),
  unreadAnnouncementCount: integer("unread_announcement_count").notNull().default(0),
  unreadSysmegCount: integer("unread_sysmeg_count").notNull().default(0),
  unreadLikeCount: integer("unread_like_count").notNull().default(0),
  unreadFavoriteCount: integer("unread_favorite_count").notNull().default(0),
  unreadFollowCount: integer("unread_follow_count").notNull().default(0),
  unreadPrivateChat: integer("unread_private_chat").notNull().default(0),
});
