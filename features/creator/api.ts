import type { FastifyInstance } from "fastify";
import { jsonRoute } from "../../server/lib/operation.ts";
import {
  creatorStatsOperation,
  deleteCreatorContentOperation,
  listCreatorCommentsOperation,
  listCreatorContentOperation,
} from "./operations.ts";

/** The creator's desk (signed in): figures, own content (list, delete), comments on it. */
export async function creatorApi(app: FastifyInstance): Promise<void> {
  const tags = ["creator"];
  jsonRoute(app, "GET", "/api/creator/", creatorStatsOperation, {
    tags,
    summary:
      "The creator centre's figures: content counts; views, likes, favourites, comments and new followers over 7 and 30 days and in all",
  });
  jsonRoute(app, "GET", "/api/creator/content/", listCreatorContentOperation, {
    tags,
    summary: "The viewer's own writings and books, newest first (kind filter, title search, cursor)",
  });
  jsonRoute(app, "DELETE", "/api/creator/content/:type/:id/", deleteCreatorContentOperation, {
    tags,
    summary: "Delete one of the viewer's items (writing or book) for good",
    status: 204,
  });
  jsonRoute(app, "GET", "/api/creator/comments/", listCreatorCommentsOperation, {
    tags,
    summary: "Others' comments and replies on the viewer's content, newest first (cursor)",
  });
}
