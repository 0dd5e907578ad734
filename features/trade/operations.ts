import { z } from "zod";
import { idSchema, idValueSchema } from "../../common/id.ts";
import { localizePath, type Locale } from "../../common/locale.ts";
import { defineOperation, noContent } from "../../server/lib/operation.ts";
import type { Database } from "../../server/db/client.ts";
import type { Viewer } from "../accounts/viewer.ts";
import { acceptTask, approveWork, cancelTask, disputeRejection, postTask, rejectWork, submitWork } from "./service.ts";
import { getProgress, getTask, listProgress, listTasks, type ProgressRow, type TaskRow } from "./queries.ts";

/* The task market: `/api/trade/missions/…` (tasks) and `/api/trade/progress/…` (taken slots). */

const wholeAmount = (max: number) =>
  z
    .number({ error: "validation:whole_amount" })
    .int("validation:whole_amount")
    .min(1, "validation:whole_amount")
    .max(max, "validation:amount_too_large");

export const taskInputSchema = z.strictObject({
  circle_id: idValueSchema(),
  title: z.string({ error: "validation:trade_title" }).trim().min(1, "validation:trade_title").max(100, "validation:trade_title"),
  description: z
    .string({ error: "validation:trade_text_required" })
    .trim()
    .min(1, "validation:trade_text_required")
    .max(20_000, "validation:trade_text_too_long"),
  reward: wholeAmount(100_000),
  slots: wholeAmount(100),
  deadline: z.coerce.date({ error: "validation:trade_deadline" }),
});

const taskAnswer = z.object({
  id: z.number().int(),
  circle: z.object({ id: z.number().int(), name: z.string(), url: z.string() }),
  poster: z.object({ id: z.number().int(), name: z.string() }),
  title: z.string(),
  description: z.string(),
  reward: z.number().int(),
  slots: z.number().int(),
  slots_left: z.number().int(),
  status: z.enum(["open", "cancelled", "expired"]),
  deadline: z.string(),
  created_at: z.string(),
  url: z.string(),
});

export function presentTask(row: TaskRow, locale: Locale): z.infer<typeof taskAnswer> {
  return {
    id: row.id,
    circle: {
      id: row.circleId,
      name: locale === "en" ? row.circleNameEn || row.circleNameZh : row.circleNameZh,
      url: localizePath(`/circles/${row.circleId}`, locale),
    },
    poster: { id: row.posterId, name: row.posterName },
    title: row.title,
    description: row.description,
    reward: row.reward,
    slots: row.slots,
    slots_left: row.openSlots,
    status: row.status,
    deadline: row.deadline.toISOString(),
    created_at: row.createdAt.toISOString(),
    url: localizePath(`/trade/missions/${row.id}`, locale),
  };
}

const progressStatus = z.enum(["accepted", "submitted", "approved", "rejected", "expired"]);
const progressAnswer = z.object({
  id: z.number().int(),
  mission_id: z.number().int(),
  title: z.string(),
  reward: z.number().int(),
  worker: z.object({ id: z.number().int(), name: z.string() }),
  poster_id: z.number().int(),
  status: progressStatus,
  content: z.string().nullable(),
  reason: z.string().nullable(),
  auto_approved: z.boolean(),
  disputed: z.boolean(),
  created_at: z.string(),
  submitted_at: z.string().nullable(),
  reviewed_at: z.string().nullable(),
  url: z.string(),
});

export function presentProgress(row: ProgressRow, locale: Locale): z.infer<typeof progressAnswer> {
  return {
    id: row.id,
    mission_id: row.missionId,
    title: row.title,
    reward: row.reward,
    worker: { id: row.workerId, name: row.workerName },
    poster_id: row.posterId,
    status: row.status,
    content: row.content,
    reason: row.reason,
    auto_approved: row.autoApproved === 1,
    disputed: row.disputedAt !== null,
    created_at: row.createdAt.toISOString(),
    submitted_at: row.submittedAt?.toISOString() ?? null,
    reviewed_at: row.reviewedAt?.toISOString() ?? null,
    url: localizePath(`/trade/missions/progress/${row.id}`, locale),
  };
}

const params = z.object({ id: idSchema });
const emptyBody = z.strictObject({}).nullish();

export const postTaskOperation = defineOperation({
  name: "postTradeMission",
  input: { body: taskInputSchema },
  viewer: "signed-in",
  run: (services, viewer, { body }) => postTask({ db: services.db }, viewer, body, services.idempotencyKey, services.now()),
  present: (result: { id: number }) => result,
  response: z.strictObject({ id: z.number().int() }),
  failures: ["insufficient_balance", "idempotency_key_required", "idempotency_mismatch"],
  unexpected: "trade_failed",
});

export const taskListQuerySchema = z.object({
  circle_id: idSchema.optional(),
  status: z.enum(["open", "cancelled", "expired"]).optional(),
  cursor: z.coerce.number().int().min(0).max(2_147_483_647).optional(),
  sort: z.enum(["new", "reward", "deadline"]).optional(),
  min_reward: z.coerce.number().int().min(0).max(100_000).optional(),
  /** Only tasks whose deadline is within this many days from now. */
  ends_within: z.coerce.number().int().min(1).max(90).optional(),
});

export const listTasksOperation = defineOperation({
  name: "listTradeMissions",
  input: { query: taskListQuerySchema },
  viewer: "optional",
  run: (services, viewer, { query }) => listTasks(services.db, viewer, query),
  present: (page: Awaited<ReturnType<typeof listTasks>>, { locale }) => ({
    results: page.items.map((row) => presentTask(row, locale)),
    next_cursor: page.nextCursor,
  }),
  response: z.object({ results: z.array(taskAnswer), next_cursor: z.string().nullable() }),
  failures: [],
});

export const getTaskOperation = defineOperation({
  name: "getTradeMission",
  input: { params },
  viewer: "optional",
  run: (services, viewer, input) => getTask(services.db, viewer, input.params.id),
  present: (row: Awaited<ReturnType<typeof getTask>>, { locale }) => ({
    ...presentTask(row, locale),
    my_progress: row.myProgress ? { id: row.myProgress.id, status: row.myProgress.status } : null,
  }),
  response: taskAnswer.extend({ my_progress: z.object({ id: z.number().int(), status: progressStatus }).nullable() }),
  failures: ["not_found"],
});

export const cancelTaskOperation = defineOperation({
  name: "cancelTradeMission",
  input: { params },
  viewer: "signed-in",
  run: (services, viewer, input) => cancelTask({ db: services.db }, viewer, input.params.id),
  present: () => null,
  response: noContent,
  failures: ["not_found", "forbidden"],
  unexpected: "trade_failed",
});

export const acceptTaskOperation = defineOperation({
  name: "acceptTradeMission",
  input: { params, body: emptyBody },
  viewer: "signed-in",
  run: (services, viewer, input) => acceptTask({ db: services.db }, viewer, input.params.id, services.now()),
  present: (result: { progress_id: number }) => result,
  response: z.strictObject({ progress_id: z.number().int() }),
  failures: ["not_found", "forbidden", "no_slots", "already_accepted"],
  unexpected: "trade_failed",
});

/** A step on a progress record answers the record as it now is. */
async function afterStep(db: Database, viewer: { id: number }, id: number, step: Promise<void>): Promise<ProgressRow> {
  await step;
  return getProgress(db, viewer, id);
}

const progressResult = {
  present: (row: ProgressRow, { locale }: { locale: Locale }) => presentProgress(row, locale),
  response: progressAnswer,
  unexpected: "trade_failed" as const,
};

const progressText = (max: number) =>
  z
    .string({ error: "validation:trade_text_required" })
    .trim()
    .min(1, "validation:trade_text_required")
    .max(max, "validation:trade_text_too_long");

type StepService<Body> = (options: { db: Database }, viewer: Viewer, progressId: number, body: Body, now: Date) => Promise<void>;

/**
 * One step on a progress record (submit, approve, reject, dispute): the same input, guard, answer
 * and failures; only the name, the body and the service differ.
 */
function progressStep<Body extends z.ZodType>(name: string, body: Body, step: StepService<z.infer<Body>>) {
  return defineOperation({
    name,
    input: { params, body },
    viewer: "signed-in",
    run: (services, viewer, input) => {
      // The body is parsed by `body` (a generic the input type cannot narrow by itself).
      const parsed = input.body as z.output<Body>;
      return afterStep(services.db, viewer, input.params.id, step({ db: services.db }, viewer, input.params.id, parsed, services.now()));
    },
    ...progressResult,
    failures: ["not_found", "forbidden", "trade_progress_closed"],
  });
}

export const submitWorkOperation = progressStep(
  "submitTradeProgress",
  z.strictObject({ content: progressText(50_000) }),
  (options, viewer, id, body, now) => submitWork(options, viewer, id, body.content, now),
);

export const approveWorkOperation = progressStep("approveTradeProgress", emptyBody, (options, viewer, id, _body, now) =>
  approveWork(options, viewer, id, now),
);

export const rejectWorkOperation = progressStep(
  "rejectTradeProgress",
  z.strictObject({ reason: progressText(1_000) }),
  (options, viewer, id, body, now) => rejectWork(options, viewer, id, body.reason, now),
);

export const disputeOperation = progressStep("disputeTradeProgress", emptyBody, (options, viewer, id, _body, now) =>
  disputeRejection(options, viewer, id, now),
);

export const getProgressOperation = defineOperation({
  name: "getTradeProgress",
  input: { params },
  viewer: "signed-in",
  run: (services, viewer, input) => getProgress(services.db, viewer, input.params.id),
  ...progressResult,
  failures: ["not_found"],
});

export const listProgressOperation = defineOperation({
  name: "listTradeProgress",
  input: {
    query: z.object({
      role: z.enum(["worker", "poster"]).default("worker"),
      status: progressStatus.optional(),
    }),
  },
  viewer: "signed-in",
  run: (services, viewer, { query }) => listProgress(services.db, viewer, query.role, query.status),
  present: (rows: ProgressRow[], { locale }) => ({ results: rows.map((row) => presentProgress(row, locale)) }),
  response: z.object({ results: z.array(progressAnswer) }),
  failures: [],
});
