import type { FastifyInstance } from "fastify";
import { jsonRoute } from "../../server/lib/operation.ts";
import { listFeedOperation } from "./operations.ts";

export async function feedsApi(app: FastifyInstance): Promise<void> {
  jsonRoute(app, "GET", "/api/feed/", listFeedOperation, {
    tags: ["feeds"],
    summary: "The home feed over writings, books and new chapters: latest, hot, all or follow, paged by cursor",
  });
}
