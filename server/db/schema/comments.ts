import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, primaryKey, serial, text, timestamp, type AnyPgColumn } from "drizzle-orm/pg-core";
import { users } from "./accounts.ts";

/**
 * Comments and replies on a subject (`subject_type`, `subject_id`: no foreign key, since the subject
 * lives in one of several tables; the subject's own deletion deletes its comments in its transaction).
 * Which kinds take comments is the subject registry's `commentable`, not a check here, so a new kind
 * is one line in its registration.
 * Two levels, as on Zhihu: a top-level comment has `parent_id` null; every reply points at the
 * top-level comment it belongs to and names the user it answers in `reply_to_user_id`. A deleted
 * comment keeps its row (`deleted_at`), never its text on any page, so its replies stay in place.
 */
export const comments = pgTable(
  "comments",
  {
    id: serial("id").primaryKey(),
    subjectType: text("subject_type").notNull(),
    subjectId: integer("subject_id").notNull(),
    authorId: integer("author_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    parentId: integer("parent_id").references((): AnyPgColumn => comments.id, { onDelete: "cascade" }),
    replyToUserId: integer("reply_to_user_id").references(() => users.id, { onDelete: "set null" }),
    body: text("body").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** The last edit by its author (within `commentEditWindowSeconds` of posting); null when never edited. */
    editedAt: timestamp("edited_at", { withTimezone: true }),
    deletedAt: timestamp("deleted_at", { withTimezone: true }),
    /** Set while moderation hides it (reports past the threshold, or a moderator's decision): readable only by its author and moderators, out of every list and count. */
    hiddenAt: timestamp("hidden_at", { withTimezone: true }),
  },
  (table) => [
    index("comments_subject_time_idx").on(table.subjectType, table.subjectId, table.createdAt),
    index("comments_parent_time_idx").on(table.parentId, table.createdAt),
    index("comments_author_time_idx").on(table.authorId, table.createdAt),
    check("comments_body_length_check", sql`char_length(${table.body}) between 1 and 1000`),
  ],
);

/**
 * The users a comment's text mentions (`@username` of an existing user, at most
 * `commentMentionLimit`), written with the comment and again when it is edited: the page links them
 * to their profiles, and each newly mentioned user is the recipient of a `comment.mentioned` event.
 */
export const commentMentions = pgTable(
  "comment_mentions",
  {
    commentId: integer("comment_id")
      .notNull()
      .references(() => comments.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
  },
  (table) => [primaryKey({ columns: [table.commentId, table.userId] }), index("comment_mentions_user_idx").on(table.userId)],
);
