import { z } from "zod";
import { defineOperation } from "../../server/lib/operation.ts";
import { subjectParamsSchema } from "../subjects/schema.ts";
import { tipInputSchema } from "./schema.ts";
import { listTippers, tipSubject, type TipResult, type Tipper } from "./service.ts";
import { defaultAvatar } from "../accounts/presenter.ts";
import { loadSubject } from "../subjects/registry.ts";

/* Tips (赞赏): `POST /api/subjects/{type}/{id}/tips/` and the tip page `/subjects/{type}/{id}/tip`. */

export const tipAnswerSchema = z.strictObject({
  tip_id: z.number().int(),
  amount: z.number().int(),
  author_amount: z.number().int(),
  balance: z.number().int(),
  tip_count: z.number().int(),
});

export const tipOperation = defineOperation({
  name: "tipSubject",
  input: { params: subjectParamsSchema, body: tipInputSchema },
  viewer: "signed-in",
  run: (services, viewer, { params, body }) =>
    tipSubject({ db: services.db }, viewer, params.type, params.id, body, services.idempotencyKey),
  present: (result: TipResult) => ({
    tip_id: result.tipId,
    amount: result.amount,
    author_amount: result.authorAmount,
    balance: result.balance,
    tip_count: result.tipCount,
  }),
  response: tipAnswerSchema,
  failures: [
    "not_found",
    "cannot_tip_self",
    "tips_disabled",
    "insufficient_balance",
    "idempotency_key_required",
    "idempotency_mismatch",
    "daily_limit_reached",
  ],
  unexpected: "tip_failed",
});

const tipperAnswer = z.object({
  username: z.string(),
  nickname: z.string(),
  avatar: z.string(),
  total: z.number().int(),
});

export function presentTipper(tipper: Tipper): z.infer<typeof tipperAnswer> {
  return { username: tipper.username, nickname: tipper.nickname, avatar: tipper.avatar ?? defaultAvatar, total: tipper.total };
}

/** Who tipped (readable by whoever may read the subject). */
export const tippersOperation = defineOperation({
  name: "tippers",
  input: { params: subjectParamsSchema },
  viewer: "optional",
  run: async (services, viewer, { params }) => {
    const subject = await loadSubject(services.db, viewer, params.type, params.id);
    return listTippers(services.db, subject.type, subject.id);
  },
  present: (list: { count: number; tippers: Tipper[] }) => ({ count: list.count, results: list.tippers.map(presentTipper) }),
  response: z.object({ count: z.number().int(), results: z.array(tipperAnswer) }),
  failures: ["not_found"],
});
