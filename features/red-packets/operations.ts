import { z } from "zod";
import { idSchema } from "../../common/id.ts";
import { defineOperation } from "../../server/lib/operation.ts";
import { claimRedPacket, fundRedPacket } from "./service.ts";

/* Red packets: `POST /api/writings/{id}/red_packets/` (the author funds one) and `POST /api/red_packets/{id}/claim/` (a reader opens it). */

export const redPacketInputSchema = z.strictObject({
  total: z
    .number({ error: "validation:whole_amount" })
    .int("validation:whole_amount")
    .min(1, "validation:whole_amount")
    .max(100_000, "validation:amount_too_large"),
  shares: z
    .number({ error: "validation:whole_amount" })
    .int("validation:whole_amount")
    .min(1, "validation:whole_amount")
    .max(1_000, "validation:amount_too_large"),
  split: z.enum(["random", "equal"], { error: "validation:invalid_value" }),
  /** Up to 7 days. */
  expires_in_hours: z
    .number({ error: "validation:invalid_value" })
    .int("validation:invalid_value")
    .min(1, "validation:invalid_value")
    .max(168, "validation:invalid_value"),
});

export const fundRedPacketOperation = defineOperation({
  name: "fundRedPacket",
  input: { params: z.object({ id: idSchema }), body: redPacketInputSchema },
  viewer: "signed-in",
  run: (services, viewer, { params, body }) =>
    fundRedPacket({ db: services.db }, viewer, params.id, body, services.idempotencyKey, services.now()),
  present: (result: { id: number }) => result,
  response: z.strictObject({ id: z.number().int() }),
  failures: ["not_found", "forbidden", "validation_failed", "insufficient_balance", "idempotency_key_required", "idempotency_mismatch"],
  unexpected: "red_packet_failed",
});

export const claimRedPacketOperation = defineOperation({
  name: "claimRedPacket",
  input: { params: z.object({ id: idSchema }), body: z.strictObject({}).nullish() },
  viewer: "signed-in",
  run: (services, viewer, { params }) => claimRedPacket({ db: services.db }, viewer, params.id, services.idempotencyKey, services.now()),
  present: (result: { amount: number }) => result,
  response: z.strictObject({ amount: z.number().int() }),
  failures: ["not_found", "forbidden", "red_packet_empty", "already_claimed", "idempotency_key_required", "idempotency_mismatch"],
  unexpected: "red_packet_failed",
});
