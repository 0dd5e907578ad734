import { z } from "zod";
import { caseStatuses, moderationActions, reportReasons } from "../../server/db/schema/reports.ts";

export { caseStatuses, moderationActions, reportReasons };

export const reportDescriptionMax = 500;
export const decisionNoteMax = 500;

/** `POST /api/subjects/{type}/{id}/reports/` and the report form. */
export const reportInputSchema = z
  .object({
    reason: z.enum(reportReasons, { message: "validation:report_reason_required" }),
    description: z.string().trim().max(reportDescriptionMax, { message: "validation:report_description_too_long" }).default(""),
  })
  .strict();
export type ReportInput = z.infer<typeof reportInputSchema>;

/** `POST /api/moderation/cases/{id}/resolve/` and the queue's decision form. */
export const resolveInputSchema = z
  .object({
    action: z.enum(moderationActions, { message: "validation:moderation_action_required" }),
    note: z.string().trim().max(decisionNoteMax, { message: "validation:moderation_note_too_long" }).default(""),
  })
  .strict();
export type ResolveInput = z.infer<typeof resolveInputSchema>;

/** `GET /api/moderation/cases/?circle_id=&status=open`. */
export const casesQuerySchema = z
  .object({
    circle_id: z.coerce.number().int().positive().max(2_147_483_647).optional(),
    status: z.enum([...caseStatuses, "all"]).default("open"),
  })
  .strict();
export type CasesQuery = z.infer<typeof casesQuerySchema>;
