import { sql } from "drizzle-orm";
import { boolean, check, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { users } from "./accounts.ts";

/**
 * Missions (任务) as data: what counts (`metric`, a counting rule of features/missions/metrics.ts),
 * how much (`target`), for whom and how often (`scope`: daily and weekly for every user, creator
 * for monetization participants, weekly) and what it pays. Seeded by the `missions` migration;
 * admins add or retire rows (`active`), never the code.
 */
export const missions = pgTable(
  "missions",
  {
    id: serial("id").primaryKey(),
    key: text("key").notNull(),
    scope: text("scope", { enum: ["daily", "weekly", "creator"] }).notNull(),
    metric: text("metric").notNull(),
    target: integer("target").notNull(),
    /** Daily and weekly missions pay gold; creator missions pay sinecoin as profit. */
    rewardCurrency: text("reward_currency", { enum: ["gold", "sinecoin"] }).notNull(),
    rewardAmount: integer("reward_amount").notNull(),
    titleZh: text("title_zh").notNull(),
    titleEn: text("title_en").notNull(),
    position: integer("position").notNull().default(0),
    active: boolean("active").notNull().default(true),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("missions_key_idx").on(table.key),
    check("missions_scope_check", sql`${table.scope} in ('daily', 'weekly', 'creator')`),
    check(
      "missions_reward_check",
      sql`${table.target} > 0 and ${table.rewardAmount} > 0 and ${table.rewardCurrency} in ('gold', 'sinecoin')
        and (${table.scope} = 'creator') = (${table.rewardCurrency} = 'sinecoin')`,
    ),
  ],
);

/**
 * A user's completed mission in one period (`period_start`, Asia/Shanghai midnight or Monday):
 * unique per (mission, user, period), so it is paid once. Made when the user claims it, or by the
 * `mission-periods` job when the period ends completed and unclaimed (claimable until
 * `claimable_until`, 7 days after the period, then `expired`).
 */
export const missionGrants = pgTable(
  "mission_grants",
  {
    id: serial("id").primaryKey(),
    missionId: integer("mission_id")
      .notNull()
      .references(() => missions.id, { onDelete: "restrict" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    periodStart: timestamp("period_start", { withTimezone: true }).notNull(),
    periodEnd: timestamp("period_end", { withTimezone: true }).notNull(),
    progress: integer("progress").notNull(),
    status: text("status", { enum: ["completed", "claimed", "expired"] })
      .notNull()
      .default("completed"),
    claimableUntil: timestamp("claimable_until", { withTimezone: true }).notNull(),
    claimedAt: timestamp("claimed_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("mission_grants_period_idx").on(table.missionId, table.userId, table.periodStart),
    index("mission_grants_user_idx").on(table.userId, table.periodStart),
    index("mission_grants_open_idx")
      .on(table.claimableUntil)
      .where(sql`${table.status} = 'completed'`),
    check("mission_grants_status_check", sql`${table.status} in ('completed', 'claimed', 'expired')`),
  ],
);
