import type { FastifyInstance } from "fastify";
import { jsonRoute } from "../../server/lib/operation.ts";
import { claimMissionOperation, listMissionsOperation } from "./operations.ts";

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
}
