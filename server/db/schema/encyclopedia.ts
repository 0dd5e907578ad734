import { sql } from "drizzle-orm";
import {
  boolean,
  check,
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
import { circles } from "./circles.ts";

export const entryLanguages = ["zh-CN", "en"] as const;

/** A reference of an entry (spec §3), cited in the text as `[@label]`. */
export interface StoredReference {
  label: string;
  authors: string[];
  title: string;
  container?: string;
  publisher?: string;
  year?: string;
  pages?: string;
  url?: string;
  accessed?: string;
  doi?: string;
}

/** A photo of an entry (spec §3): an uploaded JPG or PNG (`/attach/{file_id}`) with its caption. */
export interface StoredPhoto {
  file_id: string;
  caption: string;
}

/** How an entry shows its citations (spec §3). */
export interface StoredCitationSettings {
  format: "numeric" | "label" | "none";
  bracket: "square" | "round";
  cite_type: "single" | "multiple";
  position: "superscript" | "subscript";
}

export const defaultCitationSettings: StoredCitationSettings = {
  format: "numeric",
  bracket: "square",
  cite_type: "multiple",
  position: "superscript",
};

/** What one revision of an entry holds (stored once per distinct content, by hash). */
export interface StoredEntrySnapshot {
  name: string;
  aliases: string[];
  disambiguation: string | null;
  parent_id: number | null;
  content: string;
  references: StoredReference[];
  citation: StoredCitationSettings;
  /** The first is the infobox photo, the others the gallery; absent when there are none (older snapshots keep their hash). */
  photos?: StoredPhoto[];
}

/**
 * An encyclopedia entry of a circle (spec §3): name, aliases, a disambiguation note telling apart
 * entries of the same name, a parent entry, and a Markdown description stored with the HTML the
 * content pipeline rendered when it was saved (pages serve the HTML). Editing, history,
 * references and language versions come with the full encyclopedia; the counters are kept from
 * the start so nothing needs backfilling then.
 */
export const encyclopediaEntries = pgTable(
  "encyclopedia_entries",
  {
    id: serial("id").primaryKey(),
    // A circle holding content cannot be deleted (circleHasContent), so entries never orphan.
    circleId: integer("circle_id")
      .notNull()
      .references(() => circles.id, { onDelete: "restrict" }),
    name: text("name").notNull(),
    aliases: text("aliases")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    disambiguation: text("disambiguation"),
    parentId: integer("parent_id").references((): AnyPgColumn => encyclopediaEntries.id, { onDelete: "set null" }),
    description: text("description").notNull().default(""),
    descriptionHtml: text("description_html").notNull().default(""),
    language: text("language", { enum: entryLanguages }).notNull(),
    creatorId: integer("creator_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    /** Set while moderation hides it (reports past the threshold, or a moderator's decision): readable only by its author and moderators, out of every list and count. */
    hiddenAt: timestamp("hidden_at", { withTimezone: true }),
    editCount: integer("edit_count").notNull().default(0),
    views: integer("views").notNull().default(0),
    citeCount: integer("cite_count").notNull().default(0),
    /** Only the circle's moderators may edit a protected entry. */
    protected: boolean("protected").notNull().default(false),
    references: jsonb("references").$type<StoredReference[]>().notNull().default([]),
    citation: jsonb("citation").$type<StoredCitationSettings>().notNull().default(defaultCitationSettings),
    /** The current revision's photos: the first in the infobox, the others in the gallery. */
    photos: jsonb("photos").$type<StoredPhoto[]>().notNull().default([]),
    /** The revision the entry shows now (entry_revisions.id); every save writes one. */
    revisionId: integer("revision_id"),
    /**
     * Language versions of one entry form a group: the first version has `translation_of` null,
     * the others point at it (the group key is `coalesce(translation_of, id)`, one version per language).
     */
    translationOf: integer("translation_of").references((): AnyPgColumn => encyclopediaEntries.id, { onDelete: "set null" }),
  },
  (table) => [
    index("encyclopedia_entries_circle_idx").on(table.circleId, table.createdAt),
    // The wiki home's "recently edited".
    index("encyclopedia_entries_circle_updated_idx").on(table.circleId, table.updatedAt),
    // text_pattern_ops: the picker's name-prefix search (`lower(name) like 'abc%'`) uses it under any collation.
    index("encyclopedia_entries_name_idx").on(sql`lower(${table.name}) text_pattern_ops`),
    index("encyclopedia_entries_parent_idx").on(table.parentId),
    index("encyclopedia_entries_translation_idx").on(table.translationOf),
    uniqueIndex("encyclopedia_entries_group_language_idx").on(sql`coalesce(${table.translationOf}, ${table.id})`, table.language),
    // The entry search (`like '%q%'` on names and aliases): pg_trgm GIN indexes instead of a scan.
    // `entry_aliases_text` (the scale migration) joins the aliases in an immutable function an index may use.
    // fastupdate off: entries are written rarely, and a GIN pending list is scanned by every search until vacuum.
    index("encyclopedia_entries_name_trgm_idx")
      .using("gin", sql`lower(${table.name}) gin_trgm_ops`)
      .with({ fastupdate: "off" }),
    index("encyclopedia_entries_aliases_trgm_idx")
      .using("gin", sql`entry_aliases_text(${table.aliases}) gin_trgm_ops`)
      .with({ fastupdate: "off" }),
    check("encyclopedia_entries_name_length", sql`char_length(${table.name}) between 1 and 100`),
    check(
      "encyclopedia_entries_disambiguation_length",
      sql`${table.disambiguation} is null or char_length(${table.disambiguation}) <= 100`,
    ),
    check("encyclopedia_entries_language_check", sql`${table.language} in ('zh-CN', 'en')`),
    check("encyclopedia_entries_counts_check", sql`${table.editCount} >= 0 and ${table.views} >= 0 and ${table.citeCount} >= 0`),
  ],
);

/**
 * The content of entry revisions, stored once per distinct snapshot (its SHA-256 over the
 * canonical JSON): reverting to an old text or saving the same text again adds no copy.
 */
export const entryRevisionContents = pgTable("entry_revision_contents", {
  hash: text("hash").primaryKey(),
  snapshot: jsonb("snapshot").$type<StoredEntrySnapshot>().notNull(),
});

/**
 * Every save of an entry: immutable (author, time, summary, size and its change, language). The
 * entry's contributors, edit count and created time come from here.
 */
export const entryRevisions = pgTable(
  "entry_revisions",
  {
    id: serial("id").primaryKey(),
    entryId: integer("entry_id")
      .notNull()
      .references(() => encyclopediaEntries.id, { onDelete: "cascade" }),
    /** 1, 2, 3… within the entry. */
    number: integer("number").notNull(),
    authorId: integer("author_id").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    summary: text("summary").notNull().default(""),
    contentHash: text("content_hash")
      .notNull()
      .references(() => entryRevisionContents.hash),
    /** Characters of the description. */
    size: integer("size").notNull(),
    sizeDelta: integer("size_delta").notNull(),
    language: text("language", { enum: entryLanguages }).notNull(),
    /** The revision this one restored (a revert). */
    revertOf: integer("revert_of"),
  },
  (table) => [
    uniqueIndex("entry_revisions_number_idx").on(table.entryId, table.number),
    index("entry_revisions_author_idx").on(table.authorId),
    index("entry_revisions_content_idx").on(table.contentHash),
    check("entry_revisions_summary_length", sql`char_length(${table.summary}) <= 200`),
  ],
);

/**
 * What cites an entry: writings and questions naming it among their related entries, and
 * writings, questions, answers and other entries whose rendered HTML links to the entry's page
 * (one row per source, kept by `features/encyclopedia/handlers.ts` when they are saved or
 * deleted; migration 0033 filled it from the content written before). They make the entry's
 * `cite_count`; readers see only the sources they may read (`visibleCiteCount`).
 */
export const entryCitations = pgTable(
  "entry_citations",
  {
    entryId: integer("entry_id")
      .notNull()
      .references(() => encyclopediaEntries.id, { onDelete: "cascade" }),
    sourceType: text("source_type", { enum: ["writing", "question", "answer", "entry"] }).notNull(),
    sourceId: integer("source_id").notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.entryId, table.sourceType, table.sourceId] }),
    index("entry_citations_source_idx").on(table.sourceType, table.sourceId),
    check("entry_citations_source_type_check", sql`${table.sourceType} in ('writing', 'question', 'answer', 'entry')`),
  ],
);
