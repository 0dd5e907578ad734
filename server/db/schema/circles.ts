import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, primaryKey, serial, text, timestamp, uniqueIndex, type AnyPgColumn } from "drizzle-orm/pg-core";

import { users } from "./accounts.ts";
import type { SubjectType } from "../../../features/subjects/types.ts";

/**
 * Who may see a circle and its content (precise rules in features/circles/policy.ts):
 * `public` everyone; `circle` the circle is listed to everyone, its content to members only;
 * `parent` members of the parent circle (and its own members); `members` its members only.
 */
export const circleVisibilities = ["public", "circle", "parent", "members"] as const;
/** Lowest to highest; see features/circles/policy.ts for what each may do. */
export const circleRoles = ["member", "master", "admin", "super_admin", "founder"] as const;

export const circles = pgTable(
  "circles",
  {
    id: serial("id").primaryKey(),
    /** Stable key for seeded circles so seeding stays idempotent. */
    slug: text("slug"),
    parentId: integer("parent_id").references((): AnyPgColumn => circles.id, { onDelete: "restrict" }),
    nameZh: text("name_zh").notNull(),
    nameEn: text("name_en").notNull(),
    descriptionZh: text("description_zh").notNull().default(""),
    descriptionEn: text("description_en").notNull().default(""),
    logo: text("logo"),
    visibility: text("visibility", { enum: circleVisibilities }).notNull().default("public"),
    defaultLanguage: text("default_language").notNull().default("zh-CN"),
    /** The languages the circle is written in (default first); a page in another language shows the default's texts. */
    languages: text("languages")
      .array()
      .notNull()
      .default(sql`'{zh-CN,en}'::text[]`),
    position: integer("position").notNull().default(0),
    createdBy: integer("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("circles_slug_idx").on(table.slug),
    index("circles_parent_idx").on(table.parentId),
    check("circles_not_own_parent", sql`${table.parentId} is null or ${table.parentId} <> ${table.id}`),
    check("circles_visibility_check", sql`${table.visibility} in ('public', 'circle', 'parent', 'members')`),
    // Names are unique among siblings in each language (a missing translation is an empty name).
    uniqueIndex("circles_sibling_name_zh_idx")
      .on(sql`coalesce(${table.parentId}, 0)`, sql`lower(${table.nameZh})`)
      .where(sql`${table.nameZh} <> ''`),
    uniqueIndex("circles_sibling_name_en_idx")
      .on(sql`coalesce(${table.parentId}, 0)`, sql`lower(${table.nameEn})`)
      .where(sql`${table.nameEn} <> ''`),
  ],
);

/** Membership with its role; one row per user per circle. */
export const circleMembers = pgTable(
  "circle_members",
  {
    circleId: integer("circle_id")
      .notNull()
      .references(() => circles.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    role: text("role", { enum: circleRoles }).notNull().default("member"),
    joinedAt: timestamp("joined_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.circleId, table.userId] }),
    index("circle_members_user_idx").on(table.userId),
    check("circle_members_role_check", sql`${table.role} in ('member', 'master', 'admin', 'super_admin', 'founder')`),
  ],
);

/**
 * Writing categories of a circle, with one level of subclasses (`parentId` names the category a
 * subclass belongs to). Names are unique within a circle, whatever their level.
 */
export const circleCategories = pgTable(
  "circle_categories",
  {
    id: serial("id").primaryKey(),
    circleId: integer("circle_id")
      .notNull()
      .references(() => circles.id, { onDelete: "cascade" }),
    // "no action" (checked at the end of the statement) lets a circle's deletion cascade through both levels.
    parentId: integer("parent_id").references((): AnyPgColumn => circleCategories.id),
    name: text("name").notNull(),
    position: integer("position").notNull().default(0),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("circle_categories_name_idx").on(table.circleId, sql`lower(${table.name})`),
    index("circle_categories_parent_idx").on(table.parentId),
    check("circle_categories_not_own_parent", sql`${table.parentId} is null or ${table.parentId} <> ${table.id}`),
  ],
);

/**
 * Items a circle's moderators pinned to the top of its page (at most `maxPins`, features/circles/pins.ts).
 * The subject has no foreign key (it may live in any table): its deletion removes the pin
 * (a subject dependent).
 */
export const circlePins = pgTable(
  "circle_pins",
  {
    circleId: integer("circle_id")
      .notNull()
      .references(() => circles.id, { onDelete: "cascade" }),
    // The kinds that accept pins say so in their subject registration (`interactions.pins`).
    subjectType: text("subject_type").$type<SubjectType>().notNull(),
    subjectId: integer("subject_id").notNull(),
    pinnedBy: integer("pinned_by").references(() => users.id, { onDelete: "set null" }),
    pinnedAt: timestamp("pinned_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.circleId, table.subjectType, table.subjectId] }),
    index("circle_pins_subject_idx").on(table.subjectType, table.subjectId),
  ],
);
