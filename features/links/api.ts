import type { FastifyInstance, FastifyRequest } from "fastify";
import { jsonRoute } from "../../server/lib/operation.ts";
import {
  listLinksForReviewOperation,
  listLinksOperation,
  listOwnSuggestionsOperation,
  reviewLinkOperation,
  suggestLinkOperation,
} from "./operations.ts";

/** Friend links; the real limit (five suggestions a day per user) is counted from the rows in the service. */
export async function linksApi(app: FastifyInstance): Promise<void> {
  const tags = ["links"];
  jsonRoute(app, "GET", "/api/links/", listLinksOperation, { tags, summary: "The listed friend links", cache: "none" });
  jsonRoute(app, "POST", "/api/links/", suggestLinkOperation, {
    status: 201,
    tags,
    summary: "Suggest a friend link (name, url, description, language); listed once a site moderator approves it",
    config: {
      rateLimit: { max: 10, timeWindow: "1 minute", keyGenerator: (request: FastifyRequest) => request.cookies.sessionid ?? request.ip },
    },
  });
  jsonRoute(app, "GET", "/api/links/mine/", listOwnSuggestionsOperation, {
    tags,
    summary: "The viewer's own suggestions and their status",
  });
  jsonRoute(app, "GET", "/api/admin/links/", listLinksForReviewOperation, { tags, summary: "Friend links by status (site moderators)" });
  jsonRoute(app, "POST", "/api/admin/links/:id/review/", reviewLinkOperation, {
    tags,
    summary: "Approve or reject a friend link, with a note (site moderators)",
  });
}
