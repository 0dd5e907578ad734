import { boolean, date, integer, pgTable, primaryKey, timestamp } from "drizzle-orm/pg-core";
import { users } from "./accounts.ts";

/** Daily check-ins: one row per user per calendar day in Asia/Shanghai (the key refuses a second). */
export const checkins = pgTable(
  "checkins",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    day: date("day", { mode: "string" }).notNull(),
    /** The streak this check-in completes (1 when the day before had none). */
    consecutiveDays: integer("consecutive_days").notNull(),
    reward: integer("reward").notNull(),
    /** Filled in later with a make-up card (补签卡): it keeps the streak and pays no reward. */
    madeUp: boolean("made_up").notNull().default(false),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.day] })],
);
