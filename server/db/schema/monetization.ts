import { sql } from "drizzle-orm";
import { check, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { users } from "./accounts.ts";

/**
 * A Registered user's application to the monetization programme as a creator: approved at once
 * when every criterion is met (the user becomes "Official users"), else pending with the unmet
 * criteria as its stated reason, for an admin's review. One per user.
 */
export const monetizationApplications = pgTable(
  "monetization_applications",
  {
    userId: integer("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    status: text("status", { enum: ["pending", "approved", "rejected"] }).notNull(),
    /** Why it waits or was rejected: the unmet criteria's keys, or an admin's words. */
    reason: text("reason"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    decidedAt: timestamp("decided_at", { withTimezone: true }),
  },
  (table) => [check("monetization_applications_status_check", sql`${table.status} in ('pending', 'approved', 'rejected')`)],
);
