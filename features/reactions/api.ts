import type { FastifyInstance } from "fastify";
import { jsonRoute } from "../../server/lib/operation.ts";
import { removeReactionOperation, setReactionOperation } from "./operations.ts";

/** Like and dislike on any kind of subject of the registry (`writing`, `book`, `chapter`, `comment`, `user`, `entry`…). */
export async function reactionsApi(app: FastifyInstance): Promise<void> {
  const tags = ["interactions"];
  jsonRoute(app, "PUT", "/api/subjects/:type/:id/reaction/", setReactionOperation, {
    tags,
    summary: "Like or dislike a subject (they exclude each other); repeating it changes nothing",
  });
  jsonRoute(app, "DELETE", "/api/subjects/:type/:id/reaction/", removeReactionOperation, {
    tags,
    summary: "Take back one's like or dislike",
  });
}
