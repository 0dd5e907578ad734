import type { FastifyInstance, FastifyRequest } from "fastify";
import { jsonRoute } from "../../server/lib/operation.ts";
import { commentOnWriting, deleteCommentOperation, listCommentReplies, listWritingComments } from "./operations.ts";

/**
 * A cheap outer bound before any database work, per session (or address for visitors); the real
 * per-user limit is counted from the comment rows in the service (`commentRateLimits`), so it holds
 * for the page form and across processes too.
 */
export const commentPostRateLimit = {
  max: 30,
  timeWindow: "1 minute",
  keyGenerator: (request: FastifyRequest) => request.cookies.sessionid ?? request.ip,
} as const;

/** Comments and replies on writings (answers, chapters and entries will add their own subject routes). */
export async function commentsApi(app: FastifyInstance): Promise<void> {
  const tags = ["comments"];
  jsonRoute(app, "GET", "/api/writings/:id/comments/", listWritingComments, {
    tags,
    summary: "A writing's comments, newest first, 10 a page, each with its first three replies",
  });
  jsonRoute(app, "GET", "/api/comments/:id/replies/", listCommentReplies, {
    tags,
    summary: "A top-level comment's replies, oldest first, 20 a page",
  });
  jsonRoute(app, "POST", "/api/writings/:id/comments/", commentOnWriting, {
    status: 201,
    tags,
    summary: "Comment on a writing, or reply (`parent_id`: a comment or reply on the same writing)",
    config: { rateLimit: commentPostRateLimit },
  });
  jsonRoute(app, "DELETE", "/api/comments/:id/", deleteCommentOperation, {
    status: 204,
    tags,
    summary: "Delete a comment or reply for good (its author, the writing's author or the circle's moderators)",
    cache: "none",
  });
}
