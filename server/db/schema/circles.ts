import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, serial, text, timestamp, uniqueIndex, type AnyPgColumn } from "drizzle-orm/pg-core";

export const circleVisibilities = ["within_circle", "within_parent", "members_only"] as const;

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
    visibility: text("visibility", { enum: circleVisibilities }).notNull().default("within_circle"),
    defaultLanguage: text("default_language").notNull().default("zh-CN"),
    position: integer("position").notNull().default(0),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("circles_slug_idx").on(table.slug),
    index("circles_parent_idx").on(table.parentId),
    check("circles_not_own_parent", sql`${table.parentId} is null or ${table.parentId} <> ${table.id}`),
  ],
);
