import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, primaryKey, serial, text, timestamp, uniqueIndex, type AnyPgColumn } from "drizzle-orm/pg-core";

import { users } from "./accounts.ts";

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
    position: integer("position").notNull().default(0),
    createdBy: integer("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("circles_slug_idx").on(table.slug),
    index("circles_parent_idx").on(table.parentId),
    check("circles_not_own_parent", sql`${table.parentId} is null or ${table.parentId} <> ${table.id}`),
    check("circles_visibility_check", sql`${table.visibility} in ('public', 'circle', 'parent', 'members')`),
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
