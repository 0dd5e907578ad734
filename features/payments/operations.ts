import { z } from "zod";
import { defineOperation } from "../../server/lib/operation.ts";
import { paymentMethods, paymentOrderStatuses, paymentProviders } from "../../server/db/schema/economy.ts";
import { topupInputSchema } from "../wallet/schema.ts";
import { createTopup, refreshTopup, type CreatedTopup, type PaymentOrder } from "./service.ts";

/* Top-ups: `POST /api/wallet/topups/` and the /wallet/sinecoin_recharge form; the order's state. */

export const createTopupOperation = defineOperation({
  name: "createTopup",
  input: { body: topupInputSchema },
  viewer: "signed-in",
  run: (services, viewer, { body }) =>
    createTopup({ db: services.db }, viewer.id, body, services.idempotencyKey, services.now(), services.locale),
  present: (created: CreatedTopup) => ({ order_id: created.orderId, pay_url: created.payUrl }),
  response: z.strictObject({ order_id: z.string(), pay_url: z.string() }),
  failures: ["idempotency_key_required", "idempotency_mismatch", "topup_failed", "topup_daily_limit", "topups_closed"],
  unexpected: "topup_failed",
});

export const topupAnswerSchema = z.strictObject({
  order_id: z.string(),
  amount: z.number().int(),
  price_fen: z.number().int(),
  method: z.enum(paymentMethods),
  provider: z.enum(paymentProviders),
  status: z.enum(paymentOrderStatuses),
  created_at: z.string(),
  expires_at: z.string(),
  settled_at: z.string().nullable(),
});

export function presentTopup(order: PaymentOrder): z.infer<typeof topupAnswerSchema> {
  return {
    order_id: order.id,
    amount: order.amount,
    price_fen: order.priceFen,
    method: order.method,
    provider: order.provider,
    status: order.status,
    created_at: order.createdAt.toISOString(),
    expires_at: order.expiresAt.toISOString(),
    settled_at: order.settledAt ? order.settledAt.toISOString() : null,
  };
}

export const orderIdSchema = z.string().regex(/^tp_[A-Za-z0-9_-]{16}$/);

export const topupOperation = defineOperation({
  name: "topup",
  input: { params: z.object({ order_id: orderIdSchema }) },
  viewer: "signed-in",
  // An order still open is asked of its provider first (a payment whose notify is late is credited now).
  run: (services, viewer, { params }) => refreshTopup(services.db, viewer.id, params.order_id, services.now()),
  present: presentTopup,
  response: topupAnswerSchema,
  failures: ["not_found"],
});
