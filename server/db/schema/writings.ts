import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
  type AnyPgColumn,
} from "drizzle-orm/pg-core";
import { users } from "./accounts.ts";
import { attachments } from "./attachments.ts";
import { circleCategories, circles } from "./circles.ts";

/** Article, serialized article (numbered parts), post. Books have their own tables. */
export const writingTypes = ["article", "serial", "post"] as const;
/** Article kinds of spec §3; `custom` carries its own name in `kind_name`. */
export const writingKinds = [
  "ordinary",
  "popular_science",
  "professional",
  "academic",
  "introduction",
  "paper",
  "note",
  "survey",
  "custom",
] as const;
export const writingLanguages = ["zh-CN", "en"] as const;

export interface TocEntry {
  depth: 1 | 2 | 3 | 4 | 5 | 6;
  text: string;
  id: string;
}

/**
 * A published writing. Language versions of one writing form a group: the first version has
 * `translation_of` null, the others point at it (so the group key is `coalesce(translation_of, id)`,
 * unique per language). Serialized articles: part 1 has `series_id` null, later parts point at
 * part 1 and carry their `part_number`.
 */
export const writings = pgTable(
  "writings",
  {
    id: serial("id").primaryKey(),
    circleId: integer("circle_id")
      .notNull()
      .references(() => circles.id, { onDelete: "restrict" }),
    authorId: integer("author_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    type: text("type", { enum: writingTypes }).notNull(),
    kind: text("kind", { enum: writingKinds }).notNull().default("ordinary"),
    kindName: text("kind_name"),
    language: text("language", { enum: writingLanguages }).notNull(),
    translationOf: integer("translation_of").references((): AnyPgColumn => writings.id, { onDelete: "set null" }),
    seriesId: integer("series_id").references((): AnyPgColumn => writings.id, { onDelete: "set null" }),
    partNumber: integer("part_number").notNull().default(1),
    title: text("title").notNull(),
    markdown: text("markdown").notNull(),
    html: text("html").notNull(),
    toc: jsonb("toc").$type<TocEntry[]>().notNull().default([]),
    excerpt: text("excerpt").notNull().default(""),
    /** The author's own summary (optional): when given it is the excerpt (lists, cards) and the description meta. */
    summary: text("summary").notNull().default(""),
    textLength: integer("text_length").notNull().default(0),
    readingMinutes: integer("reading_minutes").notNull().default(1),
    coverFileId: text("cover_file_id").references(() => attachments.fileId, { onDelete: "set null" }),
    isRepost: boolean("is_repost").notNull().default(false),
    sourceUrl: text("source_url"),
    disableCopy: boolean("disable_copy").notNull().default(false),
    disableContextMenu: boolean("disable_context_menu").notNull().default(false),
    /** Stored now, enforced by the wallet work. */
    tipEnabled: boolean("tip_enabled").notNull().default(false),
    payToViewPrice: integer("pay_to_view_price").notNull().default(0),
    redPacketAmount: integer("red_packet_amount").notNull().default(0),
    /** Encyclopedia entry ids (at most five; the entries table comes later). */
    relatedEntryIds: integer("related_entry_ids")
      .array()
      .notNull()
      .default(sql`'{}'::integer[]`),
    version: integer("version").notNull().default(1),
    views: integer("views").notNull().default(0),
    /** Comments and replies not deleted (kept by the comment events' handler, recounted by the hourly Hot recompute). */
    commentCount: integer("comment_count").notNull().default(0),
    /**
     * The Hot ranking's score at the reference time of `hot_clock` (`engagement_hot_score`, one
     * formula for every kind: docs/features/interactions.md): set by a trigger whenever views,
     * comments or the publication time change (and by the interaction handlers), and for every
     * writing when maintenance moves the clock. Hot lists read `writings_hot_idx`.
     */
    hotScore: doublePrecision("hot_score").notNull().default(0),
    publishedAt: timestamp("published_at", { withTimezone: true }).notNull().defaultNow(),
    editedAt: timestamp("edited_at", { withTimezone: true }),
    /** Set while moderation hides it (reports past the threshold, or a moderator's decision): readable only by its author and moderators, out of every list and count. */
    hiddenAt: timestamp("hidden_at", { withTimezone: true }),
  },
  (table) => [
    index("writings_circle_time_idx").on(table.circleId, table.type, table.publishedAt),
    index("writings_time_idx").on(table.publishedAt, table.id),
    index("writings_author_idx").on(table.authorId),
    // List pages (first language versions only), read backwards as index ranges with keyset cursors.
    index("writings_hot_idx")
      .on(table.hotScore, table.id)
      .where(sql`${table.translationOf} is null`),
    index("writings_circle_list_idx")
      .on(table.circleId, table.publishedAt, table.id)
      .where(sql`${table.translationOf} is null`),
    index("writings_author_list_idx")
      .on(table.authorId, table.publishedAt, table.id)
      .where(sql`${table.translationOf} is null`),
    index("writings_series_idx").on(table.seriesId),
    // Lists show each item's version in the interface language: a join on (translation_of, language).
    index("writings_translation_idx")
      .on(table.translationOf, table.language)
      .where(sql`${table.translationOf} is not null`),
    uniqueIndex("writings_group_language_idx").on(sql`coalesce(${table.translationOf}, ${table.id})`, table.language),
    check("writings_related_max_five", sql`coalesce(array_length(${table.relatedEntryIds}, 1), 0) <= 5`),
    check("writings_type_check", sql`${table.type} in ('article', 'serial', 'post')`),
    check("writings_language_check", sql`${table.language} in ('zh-CN', 'en')`),
    check("writings_money_check", sql`${table.payToViewPrice} >= 0 and ${table.redPacketAmount} >= 0`),
  ],
);

/**
 * One row: the instant the stored Hot scores are computed for. Scores decay with age, so they are
 * comparable only when computed for the same instant; maintenance moves it (and recomputes every
 * score) each hour, the trigger computes a changed writing's score for the same instant.
 */
export const hotClock = pgTable(
  "hot_clock",
  {
    id: integer("id").primaryKey().default(1),
    referenceAt: timestamp("reference_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [check("hot_clock_one_row", sql`${table.id} = 1`)],
);

/** Categories a writing is filed under (always categories of the writing's circle). */
export const writingCategories = pgTable(
  "writing_categories",
  {
    writingId: integer("writing_id")
      .notNull()
      .references(() => writings.id, { onDelete: "cascade" }),
    categoryId: integer("category_id")
      .notNull()
      .references(() => circleCategories.id, { onDelete: "cascade" }),
  },
  (table) => [primaryKey({ columns: [table.writingId, table.categoryId] }), index("writing_categories_category_idx").on(table.categoryId)],
);

/** Server drafts, one per user and key (`new-article-7`, `edit-42`…); `version` guards against two tabs overwriting each other. */
export const drafts = pgTable(
  "drafts",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    title: text("title").notNull().default(""),
    body: text("body").notNull().default(""),
    fields: jsonb("fields").$type<Record<string, unknown>>().notNull().default({}),
    version: integer("version").notNull().default(1),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex("drafts_user_key_idx").on(table.userId, table.key)],
);
