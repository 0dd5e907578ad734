import { z } from "zod";
import { defineOperation } from "../../server/lib/operation.ts";
import { idSchema } from "../../common/id.ts";
import { requireStaff } from "./staff.ts";
import {
  correctionApprovalAbove,
  correctionDecisionSchema,
  correctionSchema,
  decideCorrection,
  listCorrections,
  requestCorrection,
  type CorrectionRow,
} from "./corrections.ts";

/* Ledger corrections (admins): `POST /api/admin/ledger/corrections/`, approve and reject, and the list. */

const correctionAnswer = z.strictObject({
  id: z.number().int(),
  user: z.strictObject({ id: z.number().int(), username: z.string() }),
  currency: z.enum(["gold", "sinecoin"]),
  amount: z.number().int(),
  reason: z.string(),
  status: z.enum(["pending", "posted", "rejected"]),
  requested_by: z.number().int(),
  decided_by: z.number().int().nullable(),
  transaction_id: z.number().int().nullable(),
  created_at: z.string(),
  decided_at: z.string().nullable(),
});

export function presentCorrection(row: CorrectionRow): z.infer<typeof correctionAnswer> {
  return {
    id: row.id,
    user: { id: row.userId, username: row.username },
    currency: row.currency,
    amount: row.amount,
    reason: row.reason,
    status: row.status,
    requested_by: row.requestedBy,
    decided_by: row.decidedBy,
    transaction_id: row.transactionId,
    created_at: row.createdAt.toISOString(),
    decided_at: row.decidedAt?.toISOString() ?? null,
  };
}

export const listCorrectionsOperation = defineOperation({
  name: "adminListCorrections",
  input: {},
  viewer: "signed-in",
  run: async (services, viewer) => {
    await requireStaff(services.db, viewer, "manage_ledger");
    return listCorrections(services.db);
  },
  present: (rows: CorrectionRow[]) => ({ approval_above: correctionApprovalAbove(), results: rows.map(presentCorrection) }),
  response: z.strictObject({ approval_above: z.number().int(), results: z.array(correctionAnswer) }),
  failures: ["forbidden"],
});

export const requestCorrectionOperation = defineOperation({
  name: "adminRequestCorrection",
  input: { body: correctionSchema },
  viewer: "signed-in",
  run: async (services, viewer, { body }) =>
    requestCorrection(services, await requireStaff(services.db, viewer, "manage_ledger"), services.client.address, body),
  present: presentCorrection,
  response: correctionAnswer,
  failures: ["forbidden", "not_found", "reason_required", "insufficient_balance"],
});

const decisionInput = { params: z.object({ id: idSchema }), body: correctionDecisionSchema.nullish() };

export const approveCorrectionOperation = defineOperation({
  name: "adminApproveCorrection",
  input: decisionInput,
  viewer: "signed-in",
  run: async (services, viewer, { params, body }) =>
    decideCorrection(
      services,
      await requireStaff(services.db, viewer, "manage_ledger"),
      services.client.address,
      params.id,
      "approve",
      body?.reason,
    ),
  present: presentCorrection,
  response: correctionAnswer,
  failures: ["forbidden", "not_found", "reason_required", "correction_not_pending", "second_admin_required", "insufficient_balance"],
});

export const rejectCorrectionOperation = defineOperation({
  name: "adminRejectCorrection",
  input: decisionInput,
  viewer: "signed-in",
  run: async (services, viewer, { params, body }) =>
    decideCorrection(
      services,
      await requireStaff(services.db, viewer, "manage_ledger"),
      services.client.address,
      params.id,
      "reject",
      body?.reason,
    ),
  present: presentCorrection,
  response: correctionAnswer,
  failures: ["forbidden", "not_found", "reason_required", "correction_not_pending", "second_admin_required"],
});
