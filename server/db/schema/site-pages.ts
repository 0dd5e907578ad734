import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";
import { users } from "./accounts.ts";
import { feedbackCategories, feedbackStatuses } from "../../../features/feedback/constants.ts";
import { linkLanguages, linkStatuses } from "../../../features/links/constants.ts";

/**
 * Feedback sent from `/feedback` by a signed-in user to the site admins. The sender reads its
 * status (and the admins' reply) on the same page; admins set it from `/admin/feedback`.
 */
export const feedback = pgTable(
  "feedback",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    category: text("category", { enum: feedbackCategories }).notNull(),
    message: text("message").notNull(),
    /** The page the sender was on, when the form knew it (a path of this site). */
    pagePath: text("page_path").notNull().default(""),
    status: text("status", { enum: feedbackStatuses }).notNull().default("new"),
    /** The admins' answer, shown to the sender. */
    reply: text("reply").notNull().default(""),
    handledBy: integer("handled_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("feedback_user_idx").on(table.userId, table.createdAt),
    index("feedback_status_idx").on(table.status, table.createdAt),
    check("feedback_status_check", sql`${table.status} in ('new', 'in_progress', 'resolved', 'declined')`),
  ],
);

/**
 * Friend links (`/link`): sites and resources the staff curate. A signed-in user suggests one
 * (`pending`); a site moderator approves or rejects it from `/admin/links`.
 */
export const friendLinks = pgTable(
  "friend_links",
  {
    id: serial("id").primaryKey(),
    name: text("name").notNull(),
    url: text("url").notNull(),
    description: text("description").notNull().default(""),
    language: text("language", { enum: linkLanguages }).notNull().default("both"),
    status: text("status", { enum: linkStatuses }).notNull().default("pending"),
    suggestedBy: integer("suggested_by").references(() => users.id, { onDelete: "set null" }),
    reviewedBy: integer("reviewed_by").references(() => users.id, { onDelete: "set null" }),
    reviewNote: text("review_note").notNull().default(""),
    reviewedAt: timestamp("reviewed_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("friend_links_status_idx").on(table.status, table.createdAt),
    index("friend_links_suggested_by_idx").on(table.suggestedBy, table.createdAt),
    check("friend_links_status_check", sql`${table.status} in ('pending', 'approved', 'rejected')`),
  ],
);
