import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, primaryKey, timestamp } from "drizzle-orm/pg-core";
import { users } from "./accounts.ts";

/** Who follows whom. The primary key makes a second follow of the same pair a no-op, even when two arrive at once. */
export const follows = pgTable(
  "follows",
  {
    followerId: integer("follower_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    followeeId: integer("followee_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.followerId, table.followeeId] }),
    index("follows_followee_idx").on(table.followeeId, table.createdAt),
    check("follows_not_self", sql`${table.followerId} <> ${table.followeeId}`),
  ],
);
