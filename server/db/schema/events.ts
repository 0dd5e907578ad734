import { sql } from "drizzle-orm";
import { bigserial, index, integer, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { users } from "./accounts.ts";

/**
 * What happened, written in the same transaction as the change itself (`emit`, features/events):
 * notifications, counters, feeds and analytics read from here, so none of them can disagree
 * with the data or miss a committed change.
 */
export const events = pgTable(
  "events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    /** Who did it; null for the system (seeding, maintenance). */
    actorId: integer("actor_id").references(() => users.id, { onDelete: "set null" }),
    /** What was done, in the past tense of a domain verb: `user.registered`, `circle.joined`. */
    verb: text("verb").notNull(),
    /** What it was done to: a subject registry type (`user`, `circle`, `writing`…) and its id. */
    subjectType: text("subject_type").notNull(),
    subjectId: integer("subject_id").notNull(),
    /** Whom it concerns (notified, counted): never the actor; empty for events nobody is told of. */
    recipientIds: integer("recipient_ids")
      .array()
      .notNull()
      .default(sql`'{}'::integer[]`),
    data: jsonb("data").$type<Record<string, unknown>>().notNull().default({}),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("events_subject_idx").on(table.subjectType, table.subjectId),
    index("events_verb_time_idx").on(table.verb, table.createdAt),
    index("events_actor_idx").on(table.actorId),
    // The profile's activity tab: one user's events of a few verbs, newest first.
    index("events_actor_verb_time_idx").on(table.actorId, table.verb, table.createdAt),
    index("events_recipients_idx").using("gin", table.recipientIds),
  ],
);
