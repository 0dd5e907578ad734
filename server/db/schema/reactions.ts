import { sql } from "drizzle-orm";
import { check, date, index, integer, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { users } from "./accounts.ts";

/** The two reactions: mutually exclusive, one per user per subject. */
export const reactionKinds = ["like", "dislike"] as const;
export type ReactionKind = (typeof reactionKinds)[number];

/**
 * One user's reaction to one subject (any kind of the subject registry: no foreign key to the
 * subject, which lives in one of several tables; a subject's deletion removes its reactions in its
 * transaction through the registry's dependents). The primary key makes a repeat, or twenty at
 * once, one row.
 */
export const reactions = pgTable(
  "reactions",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    subjectType: text("subject_type").notNull(),
    subjectId: integer("subject_id").notNull(),
    kind: text("kind", { enum: reactionKinds }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.userId, table.subjectType, table.subjectId] }),
    index("reactions_subject_idx").on(table.subjectType, table.subjectId),
    check("reactions_kind_check", sql`${table.kind} in ('like', 'dislike')`),
  ],
);

/**
 * A subject's interaction counts, kept exact in the transaction of every change (a row per subject
 * that was ever reacted to; none means all zero). `author_id` is copied from the subject when the
 * row is made, so a user's received likes are one indexed sum.
 */
export const subjectCounts = pgTable(
  "subject_counts",
  {
    subjectType: text("subject_type").notNull(),
    subjectId: integer("subject_id").notNull(),
    authorId: integer("author_id").references(() => users.id, { onDelete: "set null" }),
    likeCount: integer("like_count").notNull().default(0),
    dislikeCount: integer("dislike_count").notNull().default(0),
    favoriteCount: integer("favorite_count").notNull().default(0),
    shareCount: integer("share_count").notNull().default(0),
    /** Comments and replies that are not deleted (features/comments/handlers.ts). */
    commentCount: integer("comment_count").notNull().default(0),
  },
  (table) => [
    primaryKey({ columns: [table.subjectType, table.subjectId] }),
    index("subject_counts_author_idx").on(table.authorId),
    check(
      "subject_counts_not_negative",
      sql`${table.likeCount} >= 0 and ${table.dislikeCount} >= 0 and ${table.favoriteCount} >= 0 and ${table.shareCount} >= 0 and ${table.commentCount} >= 0`,
    ),
  ],
);

/** One row per subject, visitor and Asia/Shanghai day: a share counts once a day per visitor (`u:<id>` or a hashed visitor cookie). */
export const subjectShares = pgTable(
  "subject_shares",
  {
    subjectType: text("subject_type").notNull(),
    subjectId: integer("subject_id").notNull(),
    visitor: text("visitor").notNull(),
    day: date("day").notNull(),
  },
  (table) => [primaryKey({ columns: [table.subjectType, table.subjectId, table.visitor, table.day] })],
);
