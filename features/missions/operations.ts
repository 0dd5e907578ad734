import { z } from "zod";
import { idSchema } from "../../common/id.ts";
import type { Locale } from "../../common/locale.ts";
import { defineOperation } from "../../server/lib/operation.ts";
import { claimMission, listMissions, type MissionView } from "./service.ts";

/* Missions: `GET /api/missions/?scope=` (the viewer's missions) and `POST /api/missions/{id}/claim/`. */

export const missionScopes = ["daily", "weekly", "creator"] as const;

const reward = z.object({ currency: z.enum(["gold", "sinecoin"]), amount: z.number().int() });

const missionAnswer = z.object({
  id: z.number().int(),
  key: z.string(),
  title: z.string(),
  scope: z.enum(missionScopes),
  reward,
  target: z.number().int(),
  progress: z.number().int(),
  status: z.enum(["open", "completed", "claimed", "expired"]),
  period_starts_at: z.string(),
  period_ends_at: z.string(),
  claimable_until: z.string().nullable(),
  /** False for a finished period's row (its reward still claimable, or expired). */
  current: z.boolean(),
});
export type MissionAnswer = z.infer<typeof missionAnswer>;

export function presentMission(view: MissionView, locale: Locale): MissionAnswer {
  return {
    id: view.mission.id,
    key: view.mission.key,
    title: locale === "en" ? view.mission.titleEn : view.mission.titleZh,
    scope: view.mission.scope,
    reward: { currency: view.mission.rewardCurrency, amount: view.mission.rewardAmount },
    target: view.mission.target,
    progress: view.progress,
    status: view.status,
    period_starts_at: view.period.start.toISOString(),
    period_ends_at: view.period.end.toISOString(),
    claimable_until: view.claimableUntil?.toISOString() ?? null,
    current: view.current,
  };
}

export const listMissionsOperation = defineOperation({
  name: "listMissions",
  input: { query: z.object({ scope: z.enum(missionScopes).default("daily") }) },
  viewer: "signed-in",
  run: (services, viewer, { query }) => listMissions(services.db, viewer, query.scope, services.now()),
  present: (views: MissionView[], { locale }) => views.map((view) => presentMission(view, locale)),
  response: z.array(missionAnswer),
  failures: ["forbidden"],
});

export const claimMissionOperation = defineOperation({
  name: "claimMission",
  input: { params: z.object({ id: idSchema }), body: z.strictObject({}).nullish() },
  viewer: "signed-in",
  run: (services, viewer, { params }) => claimMission({ db: services.db }, viewer, params.id, services.now()),
  present: (result: z.infer<typeof reward>) => ({ reward: result }),
  response: z.strictObject({ reward }),
  failures: ["not_found", "forbidden", "not_completed", "already_claimed"],
  unexpected: "missions_failed",
});
