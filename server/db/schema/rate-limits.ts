import { integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * Route rate-limit counters shared by every process on one PostgreSQL server when Redis is not
 * configured (server/rate-limit-store.ts). One row per route and client key; the window restarts
 * when `resets_at` has passed. The table is UNLOGGED: after a crash the counters start again at zero.
 */
export const rateLimitCounters = pgTable("rate_limit_counters", {
  key: text("key").primaryKey(),
  hits: integer("hits").notNull(),
  resetsAt: timestamp("resets_at", { withTimezone: true }).notNull(),
});
