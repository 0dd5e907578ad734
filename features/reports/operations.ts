import { z } from "zod";
import { idSchema } from "../../common/id.ts";
import { defineOperation } from "../../server/lib/operation.ts";
import { caseStatuses, moderationActions, reportReasons } from "../../server/db/schema/reports.ts";
import { casesQuerySchema, reportInputSchema, resolveInputSchema } from "./schema.ts";
import { listCases, reportSubject, resolveCase, type ModerationCase, type ReportResult } from "./service.ts";

/* Reports and moderation: the API (features/reports/api.ts) and the pages' forms (the report page, the queues). */

const subjectParams = z.object({ type: z.string().min(1).max(32), id: idSchema });

export const reportAnswerSchema = z.strictObject({
  case_id: z.number().int(),
  report_id: z.number().int(),
  hidden: z.boolean(),
  open: z.boolean(),
});

function presentReport(result: ReportResult): z.infer<typeof reportAnswerSchema> {
  return { case_id: result.caseId, report_id: result.reportId, hidden: result.hidden, open: result.open };
}

const person = z.strictObject({ id: z.number().int(), username: z.string(), nickname: z.string() });

export const caseAnswerSchema = z.strictObject({
  id: z.number().int(),
  subject: z.strictObject({ type: z.string(), id: z.number().int(), title: z.string(), path: z.string() }),
  circle_id: z.number().int().nullable(),
  author: person.nullable(),
  status: z.enum(caseStatuses),
  hidden: z.boolean(),
  reporter_count: z.number().int(),
  decision: z.enum(moderationActions).nullable(),
  decided_at: z.string().nullable(),
  created_at: z.string(),
  reasons: z.array(z.enum(reportReasons)),
  reports: z.array(
    z.strictObject({
      id: z.number().int(),
      reason: z.enum(reportReasons),
      description: z.string(),
      created_at: z.string(),
      reporter: person,
    }),
  ),
  history: z.array(
    z.strictObject({
      id: z.number().int(),
      action: z.enum(moderationActions),
      note: z.string(),
      created_at: z.string(),
      actor: person.nullable(),
    }),
  ),
});
export type PresentedCase = z.infer<typeof caseAnswerSchema>;

export function presentCase(item: ModerationCase): PresentedCase {
  return {
    id: item.id,
    subject: { type: item.subjectType, id: item.subjectId, title: item.title, path: item.path },
    circle_id: item.circleId,
    author: item.author,
    status: item.status,
    hidden: item.hidden,
    reporter_count: item.reporterCount,
    decision: item.decision,
    decided_at: item.decidedAt?.toISOString() ?? null,
    created_at: item.createdAt.toISOString(),
    reasons: item.reasons,
    reports: item.reports.map((report) => ({
      id: report.id,
      reason: report.reason,
      description: report.description,
      created_at: report.createdAt.toISOString(),
      reporter: report.reporter,
    })),
    history: item.history.map((decision) => ({
      id: decision.id,
      action: decision.action,
      note: decision.note,
      created_at: decision.createdAt.toISOString(),
      actor: decision.actor,
    })),
  };
}

/** Report a subject: 201 `{ case_id, report_id, hidden, open }`; again on the same case: 409 `repeated_flagging`. */
export const reportOperation = defineOperation({
  name: "reportSubject",
  input: { params: subjectParams, body: reportInputSchema },
  viewer: "signed-in",
  run: (services, viewer, { params, body }) => reportSubject({ db: services.db }, viewer, params.type, params.id, body),
  present: presentReport,
  response: reportAnswerSchema,
  failures: ["not_found", "repeated_flagging", "cannot_report_own", "daily_limit_reached"],
  unexpected: "report_failed",
});

/** A moderation queue: a circle's (and its sub-circles') for its moderators, every case for site moderators. */
export const listCasesOperation = defineOperation({
  name: "listModerationCases",
  input: { query: casesQuerySchema },
  viewer: "signed-in",
  run: (services, viewer, { query }) => listCases(services.db, viewer, query),
  present: (cases: ModerationCase[]) => ({ results: cases.map(presentCase) }),
  response: z.strictObject({ results: z.array(caseAnswerSchema) }),
  failures: ["forbidden", "not_found"],
});

/** Decide a case: hide, restore, delete or dismiss, with a note. */
export const resolveCaseOperation = defineOperation({
  name: "resolveModerationCase",
  input: { params: z.object({ id: idSchema }), body: resolveInputSchema },
  viewer: "signed-in",
  run: (services, viewer, { params, body }) => resolveCase({ db: services.db }, viewer, params.id, body),
  present: presentCase,
  response: caseAnswerSchema,
  failures: ["forbidden", "not_found", "case_closed", "moderation_action_unavailable"],
});
