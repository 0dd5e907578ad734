import { z } from "zod";
import { idSchema } from "../../common/id.ts";
import { defineOperation } from "../../server/lib/operation.ts";
import { refundUnlock, unlockWriting, type UnlockResult } from "./service.ts";

/* Pay-to-view: `POST /api/writings/{id}/unlock/` and `…/unlock/refund/`, and the reading page's unlock and refund buttons. */

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

export const refundOperation = defineOperation({
  name: "refundUnlock",
  input: { params, body: z.strictObject({}).nullish() },
  viewer: "signed-in",
  run: (services, viewer, { params }) => refundUnlock({ db: services.db }, viewer, params.id, services.idempotencyKey, services.now()),
  present: (result: { refunded: number; balance: number }) => result,
  response: z.strictObject({ refunded: z.number().int(), balance: z.number().int() }),
  failures: ["not_found", "refund_unavailable", "insufficient_balance", "idempotency_key_required", "idempotency_mismatch"],
  unexpected: "unlock_failed",
});
