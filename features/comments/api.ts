import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { AppError } from "../../common/app-error.ts";
import type { Viewer } from "../accounts/viewer.ts";
import { personal } from "../circles/api.ts";
import { commentCursorSchema, createCommentSchema } from "./schema.ts";
import { deleteComment, listCommentsOf, listReplies, postComment } from "./service.ts";

const idSchema = z.coerce.number().int().positive().max(2_147_483_647);
const writingParams = z.object({ id: idSchema });
const commentParams = z.object({ id: idSchema });
const pageQuery = z.object({ cursor: commentCursorSchema });

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
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ["comments"];

  const signedIn = async (request: { viewer(): Promise<Viewer | null> }) => {
    const viewer = await request.viewer();
    if (!viewer) throw new AppError("not_authenticated");
    return viewer;
  };

  api.get(
    "/api/writings/:id/comments/",
    {
      schema: {
        tags,
        summary: "A writing's comments, newest first, 10 a page, each with its first three replies",
        params: writingParams,
        querystring: pageQuery,
      },
    },
    async (request, reply) => {
      const viewer = await request.viewer();
      const page = await listCommentsOf(app.db, viewer, { type: "writing", id: request.params.id }, request.query.cursor ?? null);
      personal(reply);
      return page;
    },
  );

  api.get(
    "/api/comments/:id/replies/",
    { schema: { tags, summary: "A top-level comment's replies, oldest first, 20 a page", params: commentParams, querystring: pageQuery } },
    async (request, reply) => {
      const viewer = await request.viewer();
      const page = await listReplies(app.db, viewer, request.params.id, request.query.cursor ?? null);
      personal(reply);
      return page;
    },
  );

  api.post(
    "/api/writings/:id/comments/",
    {
      schema: {
        tags,
        summary: "Comment on a writing, or reply (`parent_id`: a comment or reply on the same writing)",
        params: writingParams,
        body: createCommentSchema,
      },
      config: { rateLimit: commentPostRateLimit },
    },
    async (request, reply) => {
      const viewer = await signedIn(request);
      let created;
      try {
        created = await postComment({ db: app.db }, viewer, { type: "writing", id: request.params.id }, request.body);
      } catch (error) {
        if (error instanceof AppError) throw error;
        request.log.error({ err: error }, "comment failed");
        throw new AppError("comment_failed");
      }
      personal(reply);
      return reply.status(201).send(created);
    },
  );

  api.delete(
    "/api/comments/:id/",
    {
      schema: {
        tags,
        summary: "Delete a comment or reply for good (its author, the writing's author or the circle's moderators)",
        params: commentParams,
      },
    },
    async (request, reply) => {
      const viewer = await signedIn(request);
      await deleteComment({ db: app.db }, viewer, request.params.id);
      return reply.status(204).send();
    },
  );
}
