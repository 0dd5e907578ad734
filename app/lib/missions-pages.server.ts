import { data } from "react-router";
import type { AppContext } from "../context.ts";
import { requireViewer, notFound, signedInFormPost } from "./context.server.ts";
import { withFormToken } from "./circle-pages.server.ts";
import { dispatchIntent, formAction, type FormFailure } from "../../server/lib/operation.ts";
import { can } from "../../features/accounts/policy.ts";
import { listMissions } from "../../features/missions/service.ts";
import { claimMissionOperation, presentMission, type MissionAnswer } from "../../features/missions/operations.ts";
import type { MissionScope } from "../../features/missions/periods.ts";

export interface MissionPageData {
  username: string;
  scope: MissionScope;
  missions: MissionAnswer[];
  /** Whether the viewer may open the creator missions (a monetization participant). */
  creator: boolean;
}

/**
 * A mission page's data: the viewer's missions of a scope, measured now. Creator missions are for
 * monetization participants only; anyone else gets the not-found page, as on `/monetization`.
 */
export async function missionPage(app: AppContext, request: Request, scope: MissionScope) {
  const viewer = requireViewer(app);
  if (scope === "creator" && !can(viewer, "enter_monetization_home")) notFound(request);
  const views = await listMissions(app.db, viewer, scope, new Date());
  return withFormToken(app, {
    username: viewer.username,
    scope,
    missions: views.map((view) => presentMission(view, app.locale)),
    creator: can(viewer, "enter_monetization_home"),
  } satisfies MissionPageData);
}

/** The Claim button of a mission row: the same operation as `POST /api/missions/{id}/claim/`. */
export async function missionAction(args: Parameters<typeof signedInFormPost>[0]) {
  const post = await signedInFormPost(args);
  return dispatchIntent(post, {
    claim: formAction(claimMissionOperation, {
      params: ({ form }) => ({ id: form.get("mission_id") }),
      body: () => ({}),
      done: (result) => ({ claimed: result.reward }),
      failed: (failure: FormFailure) =>
        data({ error: failure.formError ?? Object.values(failure.fieldErrors ?? {})[0] }, { status: failure.status }),
    }),
  });
}
