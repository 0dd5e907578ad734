import { z } from "zod";
import { idSchema } from "../../common/id.ts";
import { defineOperation } from "../../server/lib/operation.ts";
import { joinCircle, leaveCircle } from "./membership.ts";
import type { CircleRole } from "./policy.ts";
import { getCirclePage, type CirclePage } from "./service.ts";

/* Joining and leaving a circle: the API (features/circles/api.ts) and the circle page's buttons (app/routes/circle.tsx). */

const input = { params: z.object({ id: idSchema }), body: z.strictObject({}).nullish() };

/** After joining or leaving: the viewer's standing and the new member count. */
export const membershipSchema = z.strictObject({
  joined: z.boolean(),
  role: z.string().nullable(),
  member_count: z.number(),
  can: z.record(z.string(), z.boolean()).nullable(),
});

interface Membership {
  role: CircleRole | null;
  page: CirclePage | null;
}

/** The page as the viewer sees it now (read after the write committed). */
const membershipOf = async (db: Parameters<typeof getCirclePage>[0], viewer: Parameters<typeof getCirclePage>[1], id: number) => {
  const page = await getCirclePage(db, viewer, id, "en");
  return { role: page?.role ?? null, page };
};

function presentMembership({ role, page }: Membership): z.infer<typeof membershipSchema> {
  return { joined: role != null, role, member_count: page?.counts.members ?? 0, can: page?.can ?? null };
}

export const joinCircleOperation = defineOperation({
  name: "joinCircle",
  input,
  viewer: "signed-in",
  run: async (services, viewer, { params }) => {
    await joinCircle({ db: services.db }, viewer, params.id);
    return membershipOf(services.db, viewer, params.id);
  },
  present: presentMembership,
  response: membershipSchema,
  failures: ["not_found", "forbidden"],
});

export const leaveCircleOperation = defineOperation({
  name: "leaveCircle",
  input,
  viewer: "signed-in",
  run: async (services, viewer, { params }) => {
    await leaveCircle({ db: services.db }, viewer, params.id);
    return membershipOf(services.db, viewer, params.id);
  },
  present: presentMembership,
  response: membershipSchema,
  failures: ["not_found", "founder_cannot_leave"],
});
