import { sql } from "drizzle-orm";
import { boolean, check, index, integer, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { users } from "./accounts.ts";

/**
 * A user's favourite folders (收藏夹). Every user who favourites has exactly one default folder
 * (`is_default`, unique per user by a partial index), made with their first favourite; it cannot be
 * renamed away or deleted. Public folders are listed on the profile.
 */
export const favoriteFolders = pgTable(
  "favorite_folders",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** Null for the default folder: its name is the interface's ("默认收藏夹" / "Default"). */
    name: text("name"),
    isDefault: boolean("is_default").notNull().default(false),
    isPublic: boolean("is_public").notNull().default(false),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("favorite_folders_user_idx").on(table.userId, table.createdAt),
    uniqueIndex("favorite_folders_one_default")
      .on(table.userId)
      .where(sql`${table.isDefault}`),
    check("favorite_folders_name_check", sql`${table.isDefault} or char_length(${table.name}) between 1 and 40`),
  ],
);

/**
 * One favourite: a user keeps a subject of any registry kind in one of their folders, with an
 * optional private note. `title` is the subject's title when it was saved (what the favourites
 * search reads; the list shows the subject's current title). The primary key makes a repeat one row.
 */
export const favorites = pgTable(
  "favorites",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    subjectType: text("subject_type").notNull(),
    subjectId: integer("subject_id").notNull(),
    folderId: integer("folder_id")
      .notNull()
      .references(() => favoriteFolders.id, { onDelete: "cascade" }),
    title: text("title").notNull().default(""),
    note: text("note").notNull().default(""),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.userId, table.subjectType, table.subjectId] }),
    index("favorites_folder_time_idx").on(table.folderId, table.createdAt),
    index("favorites_user_time_idx").on(table.userId, table.createdAt),
    index("favorites_subject_idx").on(table.subjectType, table.subjectId),
    check("favorites_note_length", sql`char_length(${table.note}) <= 500`),
  ],
);
