import { sql } from "drizzle-orm";
import { boolean, check, index, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";
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

/** The membership tiers sold for sinecoin (`features/monetization/memberships.ts`). */
export const membershipTiers = ["vip", "svip"] as const;

/**
 * A user's VIP or SVIP membership, one row per user: bought for a plan's days
 * (`features/monetization/memberships.ts`), extended by buying the same tier again or by the
 * `expire-memberships` job when `auto_renew` is on and the purse covers the plan; that job ends it
 * after `ends_at` (`ended_at` set) and gives the user back `previous_type` (or "Official users"
 * when their creator application was approved). The money is a `membership_purchase` ledger
 * transaction per purchase or renewal.
 */
export const memberships = pgTable(
  "memberships",
  {
    userId: integer("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    tier: text("tier", { enum: membershipTiers }).notNull(),
    /** The plan's length in days, which an automatic renewal buys again. */
    days: integer("days").notNull(),
    startsAt: timestamp("starts_at", { withTimezone: true }).notNull(),
    endsAt: timestamp("ends_at", { withTimezone: true }).notNull(),
    autoRenew: boolean("auto_renew").notNull().default(false),
    /** The user's type before this membership began: what they return to at its end. */
    previousType: text("previous_type").notNull(),
    /** Set once the expiry job has ended it; null while it runs. */
    endedAt: timestamp("ended_at", { withTimezone: true }),
  },
  (table) => [
    check("memberships_tier_check", sql`${table.tier} in ('vip', 'svip')`),
    check("memberships_dates_check", sql`${table.endsAt} > ${table.startsAt}`),
    index("memberships_due_idx")
      .on(table.endsAt)
      .where(sql`${table.endedAt} is null`),
  ],
);
