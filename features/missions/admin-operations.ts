import { z } from "zod";
import { idSchema } from "../../common/id.ts";
import { defineOperation } from "../../server/lib/operation.ts";
import { requireStaff } from "../admin/staff.ts";
import { changeMission, createMission, listAdminMissions, missionChangeSchema, missionDraftSchema, type AdminMissionRow } from "./admin.ts";
import { missionMetrics } from "./metrics.ts";

/* Admins' missions: `GET|POST /api/admin/missions/` and `PATCH /api/admin/missions/{id}/` (served by features/missions/api.ts and /admin/missions). */

const adminMission = z.strictObject({
  id: z.number().int(),
  key: z.string(),
  scope: z.enum(["daily", "weekly", "creator"]),
  metric: z.enum(missionMetrics),
  target: z.number().int(),
  reward: z.strictObject({ currency: z.enum(["gold", "sinecoin"]), amount: z.number().int() }),
  title_zh: z.string(),
  title_en: z.string(),
  position: z.number().int(),
  active: z.boolean(),
  claimed: z.number().int(),
  created_at: z.string(),
});
export type AdminMissionAnswer = z.infer<typeof adminMission>;

export function presentAdminMission({ mission, claimed }: AdminMissionRow): AdminMissionAnswer {
  return {
    id: mission.id,
    key: mission.key,
    scope: mission.scope,
    metric: mission.metric as AdminMissionAnswer["metric"],
    target: mission.target,
    reward: { currency: mission.rewardCurrency, amount: mission.rewardAmount },
    title_zh: mission.titleZh,
    title_en: mission.titleEn,
    position: mission.position,
    active: mission.active,
    claimed,
    created_at: mission.createdAt.toISOString(),
  };
}

export const listAdminMissionsOperation = defineOperation({
  name: "adminListMissions",
  input: {},
  viewer: "signed-in",
  run: async (services, viewer) => {
    await requireStaff(services.db, viewer, "manage_missions");
    return listAdminMissions(services.db);
  },
  present: (rows: AdminMissionRow[]) => ({ results: rows.map(presentAdminMission) }),
  response: z.strictObject({ results: z.array(adminMission) }),
  failures: ["forbidden"],
});

export const createMissionOperation = defineOperation({
  name: "adminCreateMission",
  input: { body: missionDraftSchema },
  viewer: "signed-in",
  run: async (services, viewer, { body }) =>
    createMission(services, await requireStaff(services.db, viewer, "manage_missions"), services.client.address, body),
  present: (result: { id: number }) => result,
  response: z.strictObject({ id: z.number().int() }),
  failures: ["forbidden", "reason_required", "mission_key_taken"],
  unexpected: "missions_failed",
});

export const changeMissionOperation = defineOperation({
  name: "adminChangeMission",
  input: { params: z.object({ id: idSchema }), body: missionChangeSchema },
  viewer: "signed-in",
  run: async (services, viewer, { params, body }) =>
    changeMission(services, await requireStaff(services.db, viewer, "manage_missions"), services.client.address, params.id, body),
  present: (result: { id: number; active: boolean }) => result,
  response: z.strictObject({ id: z.number().int(), active: z.boolean() }),
  failures: ["forbidden", "not_found", "reason_required"],
  unexpected: "missions_failed",
});
