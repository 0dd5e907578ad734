import type { FastifyInstance } from "fastify";
import { jsonRoute } from "../../server/lib/operation.ts";
import { followOperation, unfollowOperation } from "./operations.ts";

export async function followsApi(app: FastifyInstance): Promise<void> {
  const tags = ["follows"];
  /** 200 `{ following: true, followers_count, following_count }` (repeating it changes nothing). */
  jsonRoute(app, "POST", "/api/Users/follow/:username/", followOperation, { tags, summary: "Follow a user", cache: "no-store" });
  jsonRoute(app, "DELETE", "/api/Users/follow/:username/", unfollowOperation, { tags, summary: "Unfollow a user", cache: "no-store" });
}
