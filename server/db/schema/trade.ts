import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { users } from "./accounts.ts";
import { circles } from "./circles.ts";

/**
 * The task market (交易): a poster's paid task in a circle. Its whole reward × slots waits in the
 * task's own hold account (`system:trade_mission:<id>`) from the moment it is posted; `open_slots`
 * is what nobody has taken yet and is still held (accepting takes one, a rejection gives it back,
 * cancelling or the deadline refunds them all and sets it to 0).
 */
export const tradeMissions = pgTable(
  "trade_missions",
  {
    id: serial("id").primaryKey(),
    circleId: integer("circle_id")
      .notNull()
      .references(() => circles.id, { onDelete: "restrict" }),
    posterId: integer("poster_id")
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    title: text("title").notNull(),
    /** Markdown. */
    description: text("description").notNull(),
    /** Sinecoin paid per approved submission. */
    reward: integer("reward").notNull(),
    slots: integer("slots").notNull(),
    openSlots: integer("open_slots").notNull(),
    /** `open` until cancelled by its poster or past its deadline (`expired`). */
    status: text("status", { enum: ["open", "cancelled", "expired"] })
      .notNull()
      .default("open"),
    deadline: timestamp("deadline", { withTimezone: true }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("trade_missions_list_idx").on(table.status, table.id),
    index("trade_missions_poster_idx").on(table.posterId, table.id),
    check(
      "trade_missions_amounts_check",
      sql`${table.reward} > 0 and ${table.slots} > 0 and ${table.openSlots} >= 0 and ${table.openSlots} <= ${table.slots}`,
    ),
  ],
);

/**
 * One worker's taken slot of a task (`progress_id`): accepted → submitted → approved (by the
 * poster, or automatically after 72 hours) | rejected (the slot reopens); `expired` when the
 * deadline passed before anything was submitted (its slot is refunded). One per worker and task.
 */
export const tradeProgress = pgTable(
  "trade_progress",
  {
    id: serial("id").primaryKey(),
    missionId: integer("mission_id")
      .notNull()
      .references(() => tradeMissions.id, { onDelete: "restrict" }),
    workerId: integer("worker_id")
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    status: text("status", { enum: ["accepted", "submitted", "approved", "rejected", "expired"] })
      .notNull()
      .default("accepted"),
    content: text("content"),
    reason: text("reason"),
    /** True when the 72-hour job approved it, not the poster. */
    autoApproved: integer("auto_approved").notNull().default(0),
    disputedAt: timestamp("disputed_at", { withTimezone: true }),
    /** A moderator's decision on the dispute: the rejection stands (`upheld`) or the worker is paid (`overturned`). */
    disputeDecision: text("dispute_decision", { enum: ["upheld", "overturned"] }),
    disputeNote: text("dispute_note"),
    disputeDecidedAt: timestamp("dispute_decided_at", { withTimezone: true }),
    disputeDeciderId: integer("dispute_decider_id").references(() => users.id, { onDelete: "set null" }),
    submittedAt: timestamp("submitted_at", { withTimezone: true }),
    reviewedAt: timestamp("reviewed_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("trade_progress_worker_idx").on(table.missionId, table.workerId),
    index("trade_progress_by_worker_idx").on(table.workerId, table.id),
    index("trade_progress_disputes_idx")
      .on(table.disputedAt)
      .where(sql`${table.disputedAt} is not null and ${table.disputeDecision} is null`),
    index("trade_progress_submitted_idx")
      .on(table.submittedAt)
      .where(sql`${table.status} = 'submitted'`),
  ],
);
