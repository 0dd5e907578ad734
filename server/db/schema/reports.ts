import { sql } from "drizzle-orm";
import { boolean, check, index, integer, pgTable, real, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { users } from "./accounts.ts";

import { caseStatuses, moderationActions, reportReasons } from "../../../features/reports/constants.ts";

export { caseStatuses, moderationActions, reportReasons };
export type { CaseStatus, ModerationAction, ReportReason } from "../../../features/reports/constants.ts";

/**
 * One case per reported subject while it is open (a partial unique index): every open report on the
 * subject hangs on it, so moderators see the reasons and the reporters together. `circle_id` is the
 * circle the subject lives in (null for users), which the circle queues filter by; `author_id` who
 * is told of the decision. A decided case stays as the subject's history; a new report opens a new
 * case only when the subject was edited after the decision (`subject_edited_at`).
 */
export const moderationCases = pgTable(
  "moderation_cases",
  {
    id: serial("id").primaryKey(),
    subjectType: text("subject_type").notNull(),
    subjectId: integer("subject_id").notNull(),
    circleId: integer("circle_id"),
    authorId: integer("author_id").references(() => users.id, { onDelete: "set null" }),
    title: text("title").notNull().default(""),
    path: text("path").notNull().default(""),
    status: text("status", { enum: caseStatuses }).notNull().default("open"),
    /** Distinct reporters of this case (the threshold hides the subject). */
    reporterCount: integer("reporter_count").notNull().default(0),
    /** Whether the subject is hidden now (by the threshold or a decision). */
    hidden: boolean("hidden").notNull().default(false),
    /** The subject's own edit time when the case was opened (decided cases reopen only for later edits). */
    subjectEditedAt: timestamp("subject_edited_at", { withTimezone: true }),
    decision: text("decision", { enum: moderationActions }),
    decidedBy: integer("decided_by").references(() => users.id, { onDelete: "set null" }),
    decidedAt: timestamp("decided_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("moderation_cases_open_subject_idx")
      .on(table.subjectType, table.subjectId)
      .where(sql`${table.status} = 'open'`),
    index("moderation_cases_subject_idx").on(table.subjectType, table.subjectId, table.createdAt),
    index("moderation_cases_status_idx").on(table.status, table.circleId, table.createdAt),
    check("moderation_cases_status_check", sql`${table.status} in ('open', 'decided')`),
  ],
);

/** One reporter's report on a case: at most one per reporter and case. */
export const reports = pgTable(
  "reports",
  {
    id: serial("id").primaryKey(),
    caseId: integer("case_id")
      .notNull()
      .references(() => moderationCases.id, { onDelete: "cascade" }),
    reporterId: integer("reporter_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    reason: text("reason", { enum: reportReasons }).notNull(),
    description: text("description").notNull().default(""),
    /** What the report counts towards hiding, by its reporter's standing then (features/reports/weight.ts). */
    weight: real("weight").notNull().default(1),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("reports_case_reporter_idx").on(table.caseId, table.reporterId),
    index("reports_reporter_idx").on(table.reporterId),
    check("reports_description_length", sql`char_length(${table.description}) <= 500`),
  ],
);

/** A case's history: every decision with who, when and the note (the queue shows it). */
export const moderationDecisions = pgTable(
  "moderation_decisions",
  {
    id: serial("id").primaryKey(),
    caseId: integer("case_id")
      .notNull()
      .references(() => moderationCases.id, { onDelete: "cascade" }),
    actorId: integer("actor_id").references(() => users.id, { onDelete: "set null" }),
    action: text("action", { enum: moderationActions }).notNull(),
    note: text("note").notNull().default(""),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("moderation_decisions_case_idx").on(table.caseId, table.createdAt)],
);
