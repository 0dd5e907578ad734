import { sql } from "drizzle-orm";
import {
  bigserial,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { users } from "./accounts.ts";

/*
 * Trust & safety (features/trust): device cookies, the verdicts of actions the counting rules did
 * not count, the rings the nightly job finds, and ledger corrections awaiting a second admin.
 */

/** Which devices (the SHA-256 of the `circles_device` cookie) an account signed in or registered from. */
export const deviceSightings = pgTable(
  "device_sightings",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    deviceHash: text("device_hash").notNull(),
    firstSeenAt: timestamp("first_seen_at", { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.deviceHash] }), index("device_sightings_device_idx").on(table.deviceHash)],
);

/**
 * One row per action the counting rules did not count (a like, follow or tip by oneself, by a
 * linked account, or in a burst): its reason code, the actor, who it was for and the day
 * (Asia/Shanghai). Views keep their bot and repeat verdicts in `daily_stats.filtered_*`.
 */
export const trustVerdicts = pgTable(
  "trust_verdicts",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    action: text("action").notNull(),
    actorId: integer("actor_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    receiverId: integer("receiver_id").references(() => users.id, { onDelete: "cascade" }),
    subjectType: text("subject_type").notNull(),
    subjectId: integer("subject_id").notNull(),
    reason: text("reason").notNull(),
    day: date("day", { mode: "string" }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("trust_verdicts_day_idx").on(table.day, table.reason),
    index("trust_verdicts_actor_idx").on(table.actorId, table.action, table.subjectType, table.subjectId),
    check("trust_verdicts_action_check", sql`${table.action} in ('view', 'like', 'follow', 'tip', 'unlock', 'ad_click')`),
    check("trust_verdicts_reason_check", sql`${table.reason} in ('bot', 'repeat', 'self', 'linked', 'burst')`),
  ],
);

/** A ring the `find-rings` job found: its members (ids ascending), the evidence, and what staff decided. */
export const trustRings = pgTable(
  "trust_rings",
  {
    id: serial("id").primaryKey(),
    /** The member ids joined by commas: the same group found again updates its row. */
    memberKey: text("member_key").notNull(),
    memberIds: integer("member_ids").array().notNull(),
    evidence: jsonb("evidence").notNull(),
    status: text("status", { enum: ["open", "dismissed"] })
      .notNull()
      .default("open"),
    foundAt: timestamp("found_at", { withTimezone: true }).notNull().defaultNow(),
    lastFoundAt: timestamp("last_found_at", { withTimezone: true }).notNull().defaultNow(),
    decidedBy: integer("decided_by"),
    decisionReason: text("decision_reason").notNull().default(""),
  },
  (table) => [
    uniqueIndex("trust_rings_member_key_idx").on(table.memberKey),
    check("trust_rings_status_check", sql`${table.status} in ('open', 'dismissed')`),
  ],
);

/**
 * A ledger correction an admin asked for: a balanced transaction between the user's purse and the
 * platform's correction account, posted at once up to the configured amount, above it once a
 * second admin approves.
 */
export const ledgerCorrections = pgTable(
  "ledger_corrections",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    currency: text("currency", { enum: ["gold", "sinecoin"] }).notNull(),
    /** Positive credits the user, negative debits them. */
    amount: integer("amount").notNull(),
    reason: text("reason").notNull(),
    requestedBy: integer("requested_by").notNull(),
    status: text("status", { enum: ["pending", "posted", "rejected"] }).notNull(),
    decidedBy: integer("decided_by"),
    transactionId: integer("transaction_id"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    decidedAt: timestamp("decided_at", { withTimezone: true }),
  },
  (table) => [
    index("ledger_corrections_status_idx").on(table.status, table.id),
    check("ledger_corrections_status_check", sql`${table.status} in ('pending', 'posted', 'rejected')`),
    check("ledger_corrections_amount_check", sql`${table.amount} <> 0`),
  ],
);
