import type { FastifyInstance, FastifyRequest } from "fastify";
import { jsonRoute } from "../../server/lib/operation.ts";
import {
  commentOnSubject,
  commentOnWriting,
  deleteCommentOperation,
  editCommentOperation,
  listCommentReplies,
  listSubjectComments,
  listWritingComments,
  mentionCandidatesOperation,
} from "./operations.ts";

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

/** Completion asks once a keystroke or so while someone types an `@name`. */
const mentionRateLimit = {
  max: 120,
  timeWindow: "1 minute",
  keyGenerator: (request: FastifyRequest) => request.cookies.sessionid ?? request.ip,
} as const;

/** Comments and replies on every commentable kind of the subject registry (writings, books, chapters, entries…). */
export async function commentsApi(app: FastifyInstance): Promise<void> {
  const tags = ["comments"];
  jsonRoute(app, "GET", "/api/subjects/:type/:id/comments/", listSubjectComments, {
    tags,
    summary:
      "A subject's comments (any commentable kind), 10 a page, each with its first three replies; `sort`: newest (default), oldest, liked",
  });
  jsonRoute(app, "POST", "/api/subjects/:type/:id/comments/", commentOnSubject, {
    status: 201,
    tags,
    summary: "Comment on a subject of any commentable kind, or reply (`parent_id`: a comment or reply on the same subject)",
    config: { rateLimit: commentPostRateLimit },
  });
  jsonRoute(app, "GET", "/api/writings/:id/comments/", listWritingComments, {
    tags,
    summary: "A writing's comments (the same as `/api/subjects/writing/{id}/comments/`)",
  });
  jsonRoute(app, "POST", "/api/writings/:id/comments/", commentOnWriting, {
    status: 201,
    tags,
    summary: "Comment on a writing, or reply (the same as `POST /api/subjects/writing/{id}/comments/`)",
    config: { rateLimit: commentPostRateLimit },
  });
  jsonRoute(app, "GET", "/api/comments/:id/replies/", listCommentReplies, {
    tags,
    summary: "A top-level comment's replies, oldest first, 20 a page",
  });
  jsonRoute(app, "PATCH", "/api/comments/:id/", editCommentOperation, {
    tags,
    summary: "Edit a comment or reply: its author, within 10 minutes of posting (afterwards 403 comment_edit_expired)",
    config: { rateLimit: commentPostRateLimit },
  });
  jsonRoute(app, "DELETE", "/api/comments/:id/", deleteCommentOperation, {
    status: 204,
    tags,
    summary: "Delete a comment or reply for good (its author, the subject's author or the circle's moderators)",
    cache: "none",
  });
  jsonRoute(app, "GET", "/api/Users/mentions/", mentionCandidatesOperation, {
    tags,
    summary: "Users to complete an `@` with while writing a comment (`q`: the start of a username or nickname)",
    config: { rateLimit: mentionRateLimit },
  });
}
