import { z } from "zod";
import { idSchema } from "../../common/id.ts";
import { defineOperation } from "../../server/lib/operation.ts";
import { unlockWriting, type UnlockResult } from "./service.ts";
import { decideUnlockRefund, refundRequestsOf, requestUnlockRefund, type RefundRequestView } from "./refunds.ts";

/* Pay-to-view: unlocking, refund requests and their decisions (API and the reading page's forms). */

const params = z.object({ id: idSchema });

export const unlockOperation = defineOperation({
  name: "unlockWriting",
  input: { params, body: z.strictObject({}).nullish() },
  viewer: "signed-in",
  run: (services, viewer, { params }) => unlockWriting({ db: services.db }, viewer, params.id, services.idempotencyKey, services.now()),
  present: (result: UnlockResult) => ({
    writing_id: result.writingId,
    price: result.price,
    charged: result.charged,
    balance: result.balance,
    html: result.html,
  }),
  response: z.strictObject({
    writing_id: z.number().int(),
    price: z.number().int(),
    charged: z.number().int(),
    balance: z.number().int(),
    html: z.string(),
  }),
  failures: ["not_found", "insufficient_balance", "idempotency_key_required", "idempotency_mismatch"],
  unexpected: "unlock_failed",
});

const reasonSchema = z.string().trim().min(1).max(500);

export const requestRefundOperation = defineOperation({
  name: "requestUnlockRefund",
  input: { params, body: z.strictObject({ reason: reasonSchema }) },
  viewer: "signed-in",
  run: (services, viewer, { params, body }) =>
    requestUnlockRefund({ db: services.db }, viewer, params.id, body.reason, services.idempotencyKey, services.now()),
  present: (result: { id: number; status: "open" }) => result,
  response: z.strictObject({ id: z.number().int(), status: z.literal("open") }),
  failures: ["not_found", "refund_unavailable", "refund_request_limit", "idempotency_key_required", "idempotency_mismatch"],
  unexpected: "unlock_failed",
});

const requestView = z.strictObject({
  id: z.number().int(),
  writing_id: z.number().int(),
  reader: z.strictObject({ id: z.number().int(), username: z.string(), nickname: z.string() }),
  reason: z.string(),
  price: z.number().int(),
  status: z.enum(["open", "approved", "rejected"]),
  created_at: z.string(),
  decided_at: z.string().nullable(),
});

export const refundRequestsOperation = defineOperation({
  name: "unlockRefundRequests",
  input: { params },
  viewer: "signed-in",
  run: (services, viewer, { params }) => refundRequestsOf(services.db, viewer, params.id),
  present: (rows: RefundRequestView[]) => ({
    results: rows.map((row) => ({
      id: row.id,
      writing_id: row.writingId,
      reader: row.reader,
      reason: row.reason,
      price: row.price,
      status: row.status,
      created_at: row.createdAt.toISOString(),
      decided_at: row.decidedAt?.toISOString() ?? null,
    })),
  }),
  response: z.strictObject({ results: z.array(requestView) }),
  failures: ["not_found", "forbidden"],
});

const decision = (name: string, choice: "approve" | "reject") =>
  defineOperation({
    name,
    input: { params, body: z.strictObject({}).nullish() },
    viewer: "signed-in",
    run: (services, viewer, { params }) =>
      decideUnlockRefund({ db: services.db }, viewer, params.id, choice, services.idempotencyKey, services.now()),
    present: (result: { id: number; status: "approved" | "rejected" }) => result,
    response: z.strictObject({ id: z.number().int(), status: z.enum(["approved", "rejected"]) }),
    failures: [
      "not_found",
      "forbidden",
      "refund_request_decided",
      "insufficient_balance",
      "idempotency_key_required",
      "idempotency_mismatch",
    ],
    unexpected: "unlock_failed",
  });

export const approveRefundOperation = decision("approveUnlockRefund", "approve");
export const rejectRefundOperation = decision("rejectUnlockRefund", "reject");
