import { sql } from "drizzle-orm";
import { boolean, check, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { users } from "./accounts.ts";
import { circles } from "./circles.ts";
import { writings } from "./writings.ts";
import { currencies } from "./ledger.ts";

/** What a shop item is for: a make-up card, something to wear, or a 24-hour highlight. */
export const shopSlots = ["makeup_card", "badge", "frame", "highlight"] as const;

/**
 * What users bought in the shop (`features/shop/items.ts` names the items); the money is the
 * ledger transaction `shop:<user>:<key>`. Badges and frames are bought once each (`unique_item`
 * holds their code; null for make-up cards and highlights, which may be bought again), at most
 * one of each slot is worn, a make-up card is used once (`used_at`, `used_for` = the repaired day)
 * and a highlight names its writing and circle until `expires_at`.
 */
export const shopOwnedItems = pgTable(
  "shop_owned_items",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    item: text("item").notNull(),
    slot: text("slot", { enum: shopSlots }).notNull(),
    currency: text("currency", { enum: currencies }).notNull(),
    price: integer("price").notNull(),
    uniqueItem: text("unique_item"),
    worn: boolean("worn").notNull().default(false),
    usedAt: timestamp("used_at", { withTimezone: true }),
    usedFor: text("used_for"),
    writingId: integer("writing_id").references(() => writings.id, { onDelete: "set null" }),
    circleId: integer("circle_id").references(() => circles.id, { onDelete: "set null" }),
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("shop_owned_items_user_idx").on(table.userId, table.id),
    uniqueIndex("shop_owned_items_unique_item_idx").on(table.userId, table.uniqueItem),
    uniqueIndex("shop_owned_items_worn_idx")
      .on(table.userId, table.slot)
      .where(sql`${table.worn}`),
    index("shop_owned_items_highlight_idx")
      .on(table.circleId, table.expiresAt)
      .where(sql`${table.circleId} is not null`),
    check("shop_owned_items_price_check", sql`${table.price} > 0`),
  ],
);
