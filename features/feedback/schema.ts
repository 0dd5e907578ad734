import { z } from "zod";
import { feedbackCategories, feedbackStatuses } from "./constants.ts";
import { reasonField } from "../admin/audit.ts";
import { multiLineText, singleLineText } from "./text.ts";

export { feedbackCategories, feedbackStatuses };

export const feedbackLimits = { message: 2000, pagePath: 300, reply: 1000 } as const;

/** `POST /api/feedback/` and the `/feedback` form. */
export const feedbackInputSchema = z.strictObject({
  category: z.enum(feedbackCategories, { error: "validation:feedback_category_required" }),
  message: multiLineText(feedbackLimits.message, "validation:feedback_message_too_long", "validation:feedback_message_required"),
  page_path: singleLineText(feedbackLimits.pagePath, "validation:feedback_page_too_long")
    .refine((value) => value === "" || value.startsWith("/"), "validation:feedback_page_invalid")
    .default(""),
});
export type FeedbackInput = z.infer<typeof feedbackInputSchema>;

/** `POST /api/admin/feedback/{id}/status/` and the `/admin/feedback` form. */
export const feedbackStatusInputSchema = z.strictObject({
  status: z.enum(feedbackStatuses, { error: "validation:feedback_status_required" }),
  reply: multiLineText(feedbackLimits.reply, "validation:feedback_reply_too_long").default(""),
  /** Why, for the audit log: required (400 `reason_required`). */
  reason: reasonField,
});
export type FeedbackStatusInput = z.infer<typeof feedbackStatusInputSchema>;

/** `GET /api/admin/feedback/?status=`. */
export const feedbackQuerySchema = z.strictObject({
  status: z.enum([...feedbackStatuses, "all"]).default("all"),
});
