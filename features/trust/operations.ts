import { z } from "zod";
import { defineOperation } from "../../server/lib/operation.ts";
import { idSchema } from "../../common/id.ts";
import { requireStaff } from "../admin/staff.ts";
import { dismissRing, listRings, ringDismissSchema, ringListSchema, ringStatuses, type RingRow } from "./review.ts";

/* The trust & safety review operations (admins): served by features/admin/api.ts and the `/admin/trust` page's forms. */

const ringAnswer = z.strictObject({
  id: z.number().int(),
  status: z.enum(ringStatuses),
  members: z.array(
    z.strictObject({
      id: z.number().int(),
      username: z.string(),
      nickname: z.string(),
      intelligence_score: z.number().int(),
      created_at: z.string(),
    }),
  ),
  evidence: z.strictObject({
    window_days: z.number().int(),
    inside_share: z.number(),
    inside: z.number().int(),
    given: z.number().int(),
    pairs: z.array(
      z.strictObject({
        from: z.number().int(),
        to: z.number().int(),
        likes: z.number().int(),
        follows: z.number().int(),
        tips: z.number().int(),
      }),
    ),
    shared: z.array(z.strictObject({ kind: z.string(), value: z.string(), users: z.array(z.number().int()) })),
  }),
  found_at: z.string(),
  last_found_at: z.string(),
  decision_reason: z.string(),
});

export function presentRing(ring: RingRow): z.infer<typeof ringAnswer> {
  return {
    id: ring.id,
    status: ring.status,
    members: ring.members.map((member) => ({
      id: member.id,
      username: member.username,
      nickname: member.nickname,
      intelligence_score: member.intelligenceScore,
      created_at: member.createdAt.toISOString(),
    })),
    evidence: {
      window_days: ring.evidence.windowDays,
      inside_share: ring.evidence.insideShare,
      inside: ring.evidence.inside,
      given: ring.evidence.given,
      pairs: ring.evidence.pairs.map((pair) => ({ ...pair })),
      shared: ring.evidence.shared.map((value) => ({ ...value })),
    },
    found_at: ring.foundAt.toISOString(),
    last_found_at: ring.lastFoundAt.toISOString(),
    decision_reason: ring.decisionReason,
  };
}

export const listRingsOperation = defineOperation({
  name: "adminListRings",
  input: { query: ringListSchema },
  viewer: "signed-in",
  run: async (services, viewer, { query }) => {
    await requireStaff(services.db, viewer, "manage_trust");
    return listRings(services.db, query.status);
  },
  present: (rings: RingRow[]) => ({ results: rings.map(presentRing) }),
  response: z.strictObject({ results: z.array(ringAnswer) }),
  failures: ["forbidden"],
});

export const dismissRingOperation = defineOperation({
  name: "adminDismissRing",
  input: { params: z.object({ id: idSchema }), body: ringDismissSchema.nullish() },
  viewer: "signed-in",
  run: async (services, viewer, { params, body }) =>
    dismissRing(services, await requireStaff(services.db, viewer, "manage_trust"), services.client.address, params.id, body?.reason),
  present: (result: { dismissed: true }) => result,
  response: z.strictObject({ dismissed: z.literal(true) }),
  failures: ["forbidden", "not_found", "reason_required"],
});
