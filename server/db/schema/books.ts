import { sql } from "drizzle-orm";
import {
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
} from "drizzle-orm/pg-core";
import { users } from "./accounts.ts";
import { attachments } from "./attachments.ts";
import { circleCategories, circles } from "./circles.ts";

/** Spec section 4: a book is being written (`updating`) or finished (`completed`), and may go back. */
export const bookStates = ["updating", "completed"] as const;

/** A book in a circle, with numbered chapters (features/books). */
export const books = pgTable(
  "books",
  {
    id: serial("id").primaryKey(),
    // A circle holding content cannot be deleted (circleHasContent), so books never orphan.
    circleId: integer("circle_id")
      .notNull()
      .references(() => circles.id, { onDelete: "restrict" }),
    authorId: integer("author_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    /** An uploaded image (JPG/PNG ≤ 2 MB), served at /attach/{file_id}. */
    coverFileId: text("cover_file_id").references(() => attachments.fileId, { onDelete: "set null" }),
    state: text("state", { enum: bookStates }).notNull().default("updating"),
    /** Distinct visitors per day, summed (see book_views). */
    views: integer("views").notNull().default(0),
    /** Comments and replies on the book not deleted (kept by the comment events' handler, recounted by the hourly Hot recompute). */
    commentCount: integer("comment_count").notNull().default(0),
    /**
     * The Hot score at the instant of `hot_clock`, by the same SQL function as writings'
     * (`engagement_hot_score`, see docs/features/interactions.md), its age from `updated_at`: a
     * trigger sets it when views, comments or the last update change; Hot lists read `books_hot_idx`.
     */
    hotScore: doublePrecision("hot_score").notNull().default(0),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** The book's own texts, state or any of its chapters last changed ("last updated"). */
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    /** Set while moderation hides it (reports past the threshold, or a moderator's decision): readable only by its author and moderators, out of every list and count. */
    hiddenAt: timestamp("hidden_at", { withTimezone: true }),
  },
  (table) => [
    index("books_circle_updated_idx").on(table.circleId, table.updatedAt, table.id),
    index("books_author_idx").on(table.authorId),
    // Feeds (features/feeds): index ranges read backwards with keyset cursors.
    index("books_time_idx").on(table.createdAt, table.id),
    index("books_author_time_idx").on(table.authorId, table.createdAt, table.id),
    index("books_circle_time_idx").on(table.circleId, table.createdAt, table.id),
    index("books_hot_idx").on(table.hotScore, table.id),
    check("books_state_check", sql`${table.state} in ('updating', 'completed')`),
  ],
);

/** The circle categories a book is filed under (multi-select, the circle's own categories only). */
export const bookCategories = pgTable(
  "book_categories",
  {
    bookId: integer("book_id")
      .notNull()
      .references(() => books.id, { onDelete: "cascade" }),
    categoryId: integer("category_id")
      .notNull()
      .references(() => circleCategories.id, { onDelete: "cascade" }),
  },
  (table) => [primaryKey({ columns: [table.bookId, table.categoryId] }), index("book_categories_category_idx").on(table.categoryId)],
);

/**
 * Chapters numbered 1, 2, 3… within their book, without gaps: deleting renumbers the rest,
 * reordering moves numbers. Markdown is kept with its rendered HTML, table of contents and length.
 */
export const bookChapters = pgTable(
  "book_chapters",
  {
    id: serial("id").primaryKey(),
    bookId: integer("book_id")
      .notNull()
      .references(() => books.id, { onDelete: "cascade" }),
    number: integer("number").notNull(),
    title: text("title").notNull(),
    markdown: text("markdown").notNull(),
    html: text("html").notNull(),
    toc: jsonb("toc").$type<{ depth: number; text: string; id: string }[]>().notNull().default([]),
    textLength: integer("text_length").notNull().default(0),
    readingMinutes: integer("reading_minutes").notNull().default(0),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    /** Set while moderation hides it (reports past the threshold, or a moderator's decision): readable only by its author and moderators, out of every list and count. */
    hiddenAt: timestamp("hidden_at", { withTimezone: true }),
  },
  // Renumbering moves numbers through negative values first (see features/books/chapters.ts), so the key never clashes midway.
  (table) => [
    uniqueIndex("book_chapters_number_idx").on(table.bookId, table.number),
    // Feeds: new chapters newest first (all, or per book for followed authors and joined circles).
    index("book_chapters_time_idx").on(table.createdAt, table.id),
    index("book_chapters_book_time_idx").on(table.bookId, table.createdAt, table.id),
  ],
);
