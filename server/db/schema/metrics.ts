import { sql } from "drizzle-orm";
import { boolean, check, date, index, integer, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";

/**
 * Every kind's views in one table (docs/features/metrics.md): one row per subject, visitor and
 * Asia/Shanghai day. A repeat on the same day only raises `hits`; bots share one row per subject
 * and day under the visitor `bot` (`bot` true), so filtered views keep their reason. `read_at` is
 * set by the read beacon: the view reached the end of the text or stayed the minimum time.
 */
export const subjectViews = pgTable(
  "subject_views",
  {
    subjectType: text("subject_type").notNull(),
    subjectId: integer("subject_id").notNull(),
    /** `u:<user id>`, `v:<hashed visitor cookie>`, `user:<id>`/`anon:<hash>` (older book rows), or `bot`. */
    visitor: text("visitor").notNull(),
    day: date("day", { mode: "string" }).notNull(),
    bot: boolean("bot").notNull().default(false),
    /** Beacons of this visitor that day: the first counts, the rest are repeats. */
    hits: integer("hits").notNull().default(1),
    readAt: timestamp("read_at", { withTimezone: true }),
  },
  (table) => [
    primaryKey({ columns: [table.subjectType, table.subjectId, table.visitor, table.day] }),
    index("subject_views_day_idx").on(table.day, table.subjectType, table.subjectId),
    check("subject_views_hits_positive", sql`${table.hits} >= 1`),
  ],
);

/**
 * Daily rollups (docs/features/metrics.md): one row per subject and Asia/Shanghai day, kept in the
 * transaction of every write by triggers on the raw records (views, reactions, favourites,
 * comments, shares, follows, ledger entries) and rebuildable from them (`rebuildRollups`). A
 * creator's own row is the subject (`user`, their id): followers gained and income by source.
 * Likes, favourites and followers are net: a like taken back leaves the day it was given.
 */
export const dailyStats = pgTable(
  "daily_stats",
  {
    subjectType: text("subject_type").notNull(),
    subjectId: integer("subject_id").notNull(),
    day: date("day", { mode: "string" }).notNull(),
    /** The subject's author when the row was made (the creator's own row: the creator). */
    authorId: integer("author_id"),
    views: integer("views").notNull().default(0),
    reads: integer("reads").notNull().default(0),
    filteredBot: integer("filtered_bot").notNull().default(0),
    filteredRepeat: integer("filtered_repeat").notNull().default(0),
    likes: integer("likes").notNull().default(0),
    dislikes: integer("dislikes").notNull().default(0),
    favorites: integer("favorites").notNull().default(0),
    comments: integer("comments").notNull().default(0),
    shares: integer("shares").notNull().default(0),
    followers: integer("followers").notNull().default(0),
    incomeTips: integer("income_tips").notNull().default(0),
    incomeUnlocks: integer("income_unlocks").notNull().default(0),
    incomeAds: integer("income_ads").notNull().default(0),
    incomeMissions: integer("income_missions").notNull().default(0),
    incomeRewards: integer("income_rewards").notNull().default(0),
  },
  (table) => [
    primaryKey({ columns: [table.subjectType, table.subjectId, table.day] }),
    index("daily_stats_author_day_idx").on(table.authorId, table.day),
    index("daily_stats_day_idx").on(table.day, table.subjectType),
  ],
);
