import { sql } from "drizzle-orm";
import {
  check,
  doublePrecision,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
  type AnyPgColumn,
} from "drizzle-orm/pg-core";
import { users } from "./accounts.ts";
import { circleCategories, circles } from "./circles.ts";

export const questionLanguages = ["zh-CN", "en"] as const;

/**
 * A question asked in a circle (features/questions). Its description is Markdown kept with the
 * rendered HTML; `title_words` are the title's words (Chinese two-character words and English
 * words, lower-cased) that similar questions are matched by (`features/questions/similar.ts`).
 * `answer_count` and `comment_count` are kept by the answer and comment writes; `hot_score` by the
 * `questions_hot_score` trigger (the Hot tab reads `questions_circle_hot_idx`).
 */
export const questions = pgTable(
  "questions",
  {
    id: serial("id").primaryKey(),
    circleId: integer("circle_id")
      .notNull()
      .references(() => circles.id, { onDelete: "restrict" }),
    authorId: integer("author_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    language: text("language", { enum: questionLanguages }).notNull().default("zh-CN"),
    title: text("title").notNull(),
    titleWords: text("title_words")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    markdown: text("markdown").notNull().default(""),
    html: text("html").notNull().default(""),
    excerpt: text("excerpt").notNull().default(""),
    textLength: integer("text_length").notNull().default(0),
    /** Encyclopedia entry ids (at most five). */
    relatedEntryIds: integer("related_entry_ids")
      .array()
      .notNull()
      .default(sql`'{}'::integer[]`),
    /** The answer the asker accepted (null when none). */
    acceptedAnswerId: integer("accepted_answer_id").references((): AnyPgColumn => answers.id, { onDelete: "set null" }),
    version: integer("version").notNull().default(1),
    views: integer("views").notNull().default(0),
    answerCount: integer("answer_count").notNull().default(0),
    commentCount: integer("comment_count").notNull().default(0),
    hotScore: doublePrecision("hot_score").notNull().default(0),
    publishedAt: timestamp("published_at", { withTimezone: true }).notNull().defaultNow(),
    editedAt: timestamp("edited_at", { withTimezone: true }),
    /** Set while moderation hides it: out of every list and count; only its asker and moderators read it. */
    hiddenAt: timestamp("hidden_at", { withTimezone: true }),
  },
  (table) => [
    // The home feeds' Latest and Hot over every circle (features/questions/feed.ts).
    index("questions_time_idx").on(table.publishedAt, table.id),
    index("questions_hot_idx").on(table.hotScore, table.id),
    index("questions_circle_time_idx").on(table.circleId, table.publishedAt, table.id),
    index("questions_circle_hot_idx").on(table.circleId, table.hotScore, table.id),
    index("questions_circle_unanswered_idx")
      .on(table.circleId, table.publishedAt, table.id)
      .where(sql`${table.answerCount} = 0`),
    index("questions_author_idx").on(table.authorId, table.publishedAt, table.id),
    index("questions_title_words_idx").using("gin", table.titleWords),
    check("questions_related_max_five", sql`coalesce(array_length(${table.relatedEntryIds}, 1), 0) <= 5`),
    check("questions_language_check", sql`${table.language} in ('zh-CN', 'en')`),
  ],
);

/** Categories a question is filed under (its circle's own). */
export const questionCategories = pgTable(
  "question_categories",
  {
    questionId: integer("question_id")
      .notNull()
      .references(() => questions.id, { onDelete: "cascade" }),
    categoryId: integer("category_id")
      .notNull()
      .references(() => circleCategories.id, { onDelete: "cascade" }),
  },
  (table) => [
    primaryKey({ columns: [table.questionId, table.categoryId] }),
    index("question_categories_category_idx").on(table.categoryId),
  ],
);

/** Answers: one per user per question (spec §4, §5), by the unique index. */
export const answers = pgTable(
  "answers",
  {
    id: serial("id").primaryKey(),
    questionId: integer("question_id")
      .notNull()
      .references((): AnyPgColumn => questions.id, { onDelete: "cascade" }),
    authorId: integer("author_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    markdown: text("markdown").notNull(),
    html: text("html").notNull(),
    excerpt: text("excerpt").notNull().default(""),
    textLength: integer("text_length").notNull().default(0),
    version: integer("version").notNull().default(1),
    publishedAt: timestamp("published_at", { withTimezone: true }).notNull().defaultNow(),
    editedAt: timestamp("edited_at", { withTimezone: true }),
    /** Set while moderation hides it: out of lists and counts; only its author and moderators read it. */
    hiddenAt: timestamp("hidden_at", { withTimezone: true }),
  },
  (table) => [
    // The home feeds' Latest over every circle (features/questions/feed.ts).
    index("answers_time_idx").on(table.publishedAt, table.id),
    uniqueIndex("answers_question_author_idx").on(table.questionId, table.authorId),
    index("answers_question_time_idx").on(table.questionId, table.publishedAt, table.id),
    index("answers_author_idx").on(table.authorId, table.publishedAt, table.id),
  ],
);

/** Who follows a question (told of its new answers). */
export const questionFollows = pgTable(
  "question_follows",
  {
    questionId: integer("question_id")
      .notNull()
      .references(() => questions.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.questionId, table.userId] }), index("question_follows_user_idx").on(table.userId)],
);
