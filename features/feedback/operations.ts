import { z } from "zod";
import { idSchema } from "../../common/id.ts";
import { defineOperation } from "../../server/lib/operation.ts";
import { feedbackCategories, feedbackStatuses } from "./constants.ts";
import { feedbackInputSchema, feedbackQuerySchema, feedbackStatusInputSchema } from "./schema.ts";
import { listAllFeedback, listOwnFeedback, sendFeedback, setFeedbackStatus, type FeedbackRow } from "./service.ts";

/* Feedback to the site admins: the API (features/feedback/api.ts), `/feedback` and `/admin/feedback`. */

export const feedbackAnswerSchema = z.strictObject({
  id: z.number(),
  username: z.string(),
  category: z.enum(feedbackCategories),
  message: z.string(),
  page_path: z.string(),
  status: z.enum(feedbackStatuses),
  reply: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type PresentedFeedback = z.infer<typeof feedbackAnswerSchema>;

export function presentFeedback(row: FeedbackRow): PresentedFeedback {
  return {
    id: row.id,
    username: row.username,
    category: row.category,
    message: row.message,
    page_path: row.pagePath,
    status: row.status,
    reply: row.reply,
    created_at: new Date(row.createdAt).toISOString(),
    updated_at: new Date(row.updatedAt).toISOString(),
  };
}

const listAnswer = z.strictObject({ results: z.array(feedbackAnswerSchema) });

/** Send feedback (signed in; five an hour). */
export const sendFeedbackOperation = defineOperation({
  name: "sendFeedback",
  input: { body: feedbackInputSchema },
  viewer: "signed-in",
  run: (services, viewer, { body }) => sendFeedback({ db: services.db, now: services.now() }, viewer, body),
  present: presentFeedback,
  response: feedbackAnswerSchema,
  failures: ["validation_failed", "rate_limited"],
  unexpected: "feedback_failed",
});

/** The viewer's own feedback with its status. */
export const listOwnFeedbackOperation = defineOperation({
  name: "listOwnFeedback",
  input: {},
  viewer: "signed-in",
  run: (services, viewer) => listOwnFeedback(services.db, viewer),
  present: (rows: FeedbackRow[]) => ({ results: rows.map(presentFeedback) }),
  response: listAnswer,
  failures: [],
});

/** Everyone's feedback (site admins). */
export const listAllFeedbackOperation = defineOperation({
  name: "listAllFeedback",
  input: { query: feedbackQuerySchema },
  viewer: "signed-in",
  run: (services, viewer, { query }) => listAllFeedback(services.db, viewer, query.status),
  present: (rows: FeedbackRow[]) => ({ results: rows.map(presentFeedback) }),
  response: listAnswer,
  failures: ["forbidden"],
});

/** Set a feedback's status and reply (site admins). */
export const setFeedbackStatusOperation = defineOperation({
  name: "setFeedbackStatus",
  input: { params: z.object({ id: idSchema }), body: feedbackStatusInputSchema },
  viewer: "signed-in",
  run: (services, viewer, { params, body }) =>
    setFeedbackStatus({ db: services.db, now: services.now() }, viewer, params.id, body, services.client.address),
  present: presentFeedback,
  response: feedbackAnswerSchema,
  failures: ["forbidden", "not_found", "validation_failed", "reason_required"],
  unexpected: "feedback_failed",
});
