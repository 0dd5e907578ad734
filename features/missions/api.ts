import type { FastifyInstance } from "fastify";
import { jsonRoute } from "../../server/lib/operation.ts";
import { claimMissionOperation, listMissionsOperation } from "./operations.ts";
import { changeMissionOperation, createMissionOperation, listAdminMissionsOperation } from "./admin-operations.ts";

export async function missionsApi(app: FastifyInstance): Promise<void> {
  const tags = ["missions"];
  jsonRoute(app, "GET", "/api/missions/", listMissionsOperation, {
    tags,
    summary: "The viewer's missions of a scope (daily, weekly, creator) with progress measured on the server",
  });
  jsonRoute(app, "POST", "/api/missions/:id/claim/", claimMissionOperation, {
    tags,
    summary: "Claim a completed mission's reward, once per period (409 not_completed or already_claimed)",
  });
  const adminTags = ["admin"];
  jsonRoute(app, "GET", "/api/admin/missions/", listAdminMissionsOperation, {
    tags: adminTags,
    summary: "Admins: every mission, paused ones too, with its terms and claimed count",
  });
  jsonRoute(app, "POST", "/api/admin/missions/", createMissionOperation, {
    status: 201,
    tags: adminTags,
    summary: "Admins: make a mission (key, scope, counting rule, target, reward, titles), with a reason (audited)",
  });
  jsonRoute(app, "PATCH", "/api/admin/missions/:id/", changeMissionOperation, {
    tags: adminTags,
    summary: "Admins: change a mission's terms, or pause (`active: false`) or resume it, with a reason (audited)",
  });
}
