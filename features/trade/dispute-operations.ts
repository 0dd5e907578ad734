import { z } from "zod";
import { idSchema } from "../../common/id.ts";
import { localizePath, type Locale } from "../../common/locale.ts";
import { defineOperation } from "../../server/lib/operation.ts";
import { reasonField } from "../admin/audit.ts";
import { requireStaff } from "../admin/staff.ts";
import { decideDispute, listDisputes, type DisputeRow } from "./disputes.ts";

/* The admins' dispute queue: `GET /api/admin/trade/disputes/` and `POST /api/admin/trade/disputes/{progress_id}/`. */

const disputeAnswer = z.strictObject({
  id: z.number().int(),
  mission_id: z.number().int(),
  title: z.string(),
  reward: z.number().int(),
  worker: z.strictObject({ id: z.number().int(), name: z.string() }),
  poster: z.strictObject({ id: z.number().int(), name: z.string() }),
  content: z.string().nullable(),
  reason: z.string().nullable(),
  status: z.string(),
  disputed_at: z.string().nullable(),
  decision: z.enum(["upheld", "overturned"]).nullable(),
  note: z.string().nullable(),
  decided_at: z.string().nullable(),
  url: z.string(),
});
export type DisputeAnswer = z.infer<typeof disputeAnswer>;

export function presentDispute(row: DisputeRow, locale: Locale): DisputeAnswer {
  return {
    id: row.id,
    mission_id: row.missionId,
    title: row.title,
    reward: row.reward,
    worker: { id: row.workerId, name: row.workerName },
    poster: { id: row.posterId, name: row.posterName },
    content: row.content,
    reason: row.reason,
    status: row.status,
    disputed_at: row.disputedAt?.toISOString() ?? null,
    decision: row.decision,
    note: row.note,
    decided_at: row.decidedAt?.toISOString() ?? null,
    url: localizePath(`/trade/missions/${row.missionId}`, locale),
  };
}

export const listDisputesOperation = defineOperation({
  name: "adminListTradeDisputes",
  input: { query: z.object({ state: z.enum(["open", "decided"]).default("open") }) },
  viewer: "signed-in",
  run: async (services, viewer, { query }) => {
    await requireStaff(services.db, viewer, "review_trade_disputes");
    return listDisputes(services.db, query.state);
  },
  present: (rows: DisputeRow[], { locale }) => ({ results: rows.map((row) => presentDispute(row, locale)) }),
  response: z.strictObject({ results: z.array(disputeAnswer) }),
  failures: ["forbidden"],
});

export const decideDisputeOperation = defineOperation({
  name: "adminDecideTradeDispute",
  input: {
    params: z.object({ id: idSchema }),
    body: z.strictObject({ decision: z.enum(["uphold", "overturn"], { error: "validation:invalid_value" }), reason: reasonField }),
  },
  viewer: "signed-in",
  run: async (services, viewer, { params, body }) => {
    const staff = await requireStaff(services.db, viewer, "review_trade_disputes");
    await decideDispute({ db: services.db }, staff, services.client.address, params.id, body.decision, body.reason, services.now());
    return { decided: true as const };
  },
  present: (result: { decided: true }) => result,
  response: z.strictObject({ decided: z.literal(true) }),
  failures: ["forbidden", "not_found", "reason_required", "trade_progress_closed", "insufficient_balance"],
  unexpected: "trade_failed",
});
