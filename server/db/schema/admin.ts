import { boolean, index, integer, jsonb, pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";

/**
 * What staff (and the admin command line) did: one row per write, never changed or deleted. A
 * trigger (migration 0047) refuses UPDATE and DELETE, so not even the app's own connection can
 * rewrite history. `actor_id` is null for the command line; no foreign key, so deleting a user
 * never has to touch these rows.
 */
export const auditLog = pgTable(
  "audit_log",
  {
    id: serial("id").primaryKey(),
    actorId: integer("actor_id"),
    /** The actor's username when the row was written (the command line: "cli"). */
    actorName: text("actor_name").notNull(),
    /** The actor's site role then (`moderator`, `admin`, or `cli`). */
    actorRole: text("actor_role").notNull(),
    /** What was done, `area.verb` (`user.update`, `job.retry`, `ledger.check`). */
    action: text("action").notNull(),
    /** What it was done to, `kind:id` (`user:12`, `job:<uuid>`, `ledger`). */
    target: text("target").notNull(),
    before: jsonb("before"),
    after: jsonb("after"),
    reason: text("reason").notNull(),
    /** The client address the request came from ("" on the command line). */
    address: text("address").notNull().default(""),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("audit_log_actor_idx").on(table.actorId, table.id),
    index("audit_log_target_idx").on(table.target, table.id),
    index("audit_log_action_idx").on(table.action, table.id),
  ],
);

/** The results of `ledger-check` runs started from the admin area (the dashboard shows the last). */
export const ledgerChecks = pgTable("ledger_checks", {
  id: serial("id").primaryKey(),
  actorId: integer("actor_id"),
  consistent: boolean("consistent").notNull(),
  /** The whole report (features/ledger/check.ts), as stored. */
  report: jsonb("report").notNull(),
  ranAt: timestamp("ran_at", { withTimezone: true }).notNull().defaultNow(),
});
