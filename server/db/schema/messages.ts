import { sql } from "drizzle-orm";
import { bigint, bigserial, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { users } from "./accounts.ts";

/** The nine unread counters of the message centre, one row per user. */
export const unreadCounters = pgTable("unread_counters", {
  userId: integer("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  answerCount: integer("answer_count").notNull().default(0),
  unreadCommentCount: integer("unread_comment_count").notNull().default(0),
  unreadReplies: integer("unread_replies").notNull().default(0),
  unreadSysmegCount: integer("unread_sysmeg_count").notNull().default(0),
  unreadLikeCount: integer("unread_like_count").notNull().default(0),
  unreadFavoriteCount: integer("unread_favorite_count").notNull().default(0),
  unreadFollowCount: integer("unread_follow_count").notNull().default(0),
  /** The newest announcement the user has read (their announcement counter counts the newer ones). */
  announcementsReadId: bigint("announcements_read_id", { mode: "number" }).notNull().default(0),
});

/**
 * What a user is told (the message centre's lists): one row per recipient and cause (the event),
 * written in the transaction of the action by the event handlers (features/messages/handlers.ts),
 * so it is never lost and never doubled. Unread counters are counted from the unread rows.
 */
export const notifications = pgTable(
  "notifications",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    recipientId: integer("recipient_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** answers, reply, comment, at, like, favorite, follow, system */
    category: text("category").notNull(),
    /** The event's verb: what happened. */
    verb: text("verb").notNull(),
    eventId: bigint("event_id", { mode: "number" }).notNull(),
    actorId: integer("actor_id").references(() => users.id, { onDelete: "cascade" }),
    /** What it is about (a registry subject): the target a reader opens. */
    subjectType: text("subject_type").notNull(),
    subjectId: integer("subject_id").notNull(),
    data: jsonb("data").$type<Record<string, unknown>>().notNull().default({}),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    readAt: timestamp("read_at", { withTimezone: true }),
  },
  (table) => [
    uniqueIndex("notifications_event_recipient_idx").on(table.eventId, table.recipientId),
    index("notifications_list_idx").on(table.recipientId, table.category, table.id),
    index("notifications_unread_idx")
      .on(table.recipientId, table.category)
      .where(sql`${table.readAt} is null`),
    index("notifications_subject_idx").on(table.subjectType, table.subjectId),
  ],
);

/** Site-wide announcements, written by site moderators in both languages; every user reads them. */
export const announcements = pgTable("announcements", {
  id: bigserial("id", { mode: "number" }).primaryKey(),
  authorId: integer("author_id").references(() => users.id, { onDelete: "set null" }),
  titleZh: text("title_zh").notNull(),
  titleEn: text("title_en").notNull(),
  bodyZh: text("body_zh").notNull(),
  bodyEn: text("body_en").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  /** When it goes out: now, or a scheduled time (the `publish-announcements` job sends it then). */
  publishAt: timestamp("publish_at", { withTimezone: true }).notNull().defaultNow(),
  /** When it went out (null: still scheduled); readers see only announced, unwithdrawn ones. */
  announcedAt: timestamp("announced_at", { withTimezone: true }),
  /** Withdrawn by staff: no longer listed nor counted. */
  withdrawnAt: timestamp("withdrawn_at", { withTimezone: true }),
});

/** The message categories a user muted: they create no notification and count nothing for them. */
export const messageMutes = pgTable(
  "message_mutes",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    category: text("category").notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.userId, table.category] }),
    index("message_mutes_category_idx").on(table.category, table.userId),
  ],
);
