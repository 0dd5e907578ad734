import { sql } from "drizzle-orm";
import { customType, doublePrecision, index, integer, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";

const tsvector = customType<{ data: string }>({ dataType: () => "tsvector" });

/**
 * The search index (features/search): one row per searchable subject (writing, book, chapter,
 * question, answer, entry, circle, user), written in the transaction of the change it follows.
 * `terms` holds the words of the title, names, aliases and body as the search text module
 * segments them (tsvector literal, `simple` semantics: no parser, no stemming in the database);
 * `names` the folded title, names and aliases for trigram matching; `pinyin` their pinyin and
 * initials (names only); `synonyms` an entry's folded name and aliases. Visibility is checked on
 * every query against `circle_id` (null: a user, seen by everyone).
 */
export const searchDocuments = pgTable(
  "search_documents",
  {
    type: text("type").notNull(),
    id: integer("id").notNull(),
    circleId: integer("circle_id"),
    /** A chapter's book, an answer's question: deleted with them. */
    parentId: integer("parent_id"),
    /** zh-CN or en; null for circles and users (every language). */
    language: text("language"),
    title: text("title").notNull(),
    /** Its page, without the /en prefix. */
    path: text("path").notNull(),
    names: text("names").notNull(),
    pinyin: text("pinyin").notNull().default(""),
    synonyms: text("synonyms")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** Plain text of the body (its start), the snippets are cut from it. */
    body: text("body").notNull().default(""),
    terms: tsvector("terms").notNull(),
    authorId: integer("author_id"),
    publishedAt: timestamp("published_at", { withTimezone: true }).notNull(),
    /** The kind's Hot score when indexed (engagement for entries, circles and users). */
    hotScore: doublePrecision("hot_score").notNull().default(0),
    /**
     * The order in which a common word's matches are read (features/search/service.ts): Hot and
     * recency in one indexed number, ln(1 + Hot) plus one per 30 days of publication time, so a
     * search stops after its best few hundred matches instead of reading every match.
     */
    rankScore: doublePrecision("rank_score")
      .notNull()
      .generatedAlwaysAs(sql`ln(1 + greatest(hot_score, 0)) + extract(epoch from (published_at at time zone 'UTC'))::float8 / 2592000.0`),
  },
  (table) => [
    primaryKey({ columns: [table.type, table.id] }),
    index("search_documents_terms_idx").using("gin", table.terms),
    index("search_documents_names_trgm_idx").using("gin", sql`${table.names} gin_trgm_ops`),
    index("search_documents_pinyin_trgm_idx").using("gin", sql`${table.pinyin} gin_trgm_ops`),
    index("search_documents_synonyms_idx").using("gin", table.synonyms),
    index("search_documents_parent_idx").on(table.type, table.parentId),
    index("search_documents_time_idx").on(table.publishedAt),
    index("search_documents_rank_idx").on(table.rankScore),
    index("search_documents_type_rank_idx").on(table.type, table.rankScore),
    index("search_documents_circle_rank_idx").on(table.circleId, table.rankScore),
    /** Titles, names, their pinyin and related entries' names (weights A and B): the "names first" candidates. */
    index("search_documents_title_terms_idx").using("gin", sql`ts_filter(${table.terms}, '{a,b}')`),
  ],
);
