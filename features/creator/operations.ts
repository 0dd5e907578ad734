import { z } from "zod";
import { eq } from "drizzle-orm";
import { idSchema } from "../../common/id.ts";
import { AppError } from "../../common/app-error.ts";
import { comments } from "../../server/db/schema/index.ts";
import { defineOperation, noContent } from "../../server/lib/operation.ts";
import { presentedCommentSchema, commentBodySchema, type PresentedComment } from "../comments/schema.ts";
import { deleteComment, postComment } from "../comments/service.ts";
import { listCommentsOnMyContent, type CreatorCommentPage } from "./comments.ts";
import { creatorKinds, deleteCreatorContent, listCreatorContent, type CreatorContentPage } from "./content.ts";
import { creatorStats, type CreatorStats } from "./stats.ts";

/*
 * The creator's desk: its figures, its content and the comments on it, served by the API
 * (features/creator/api.ts) and the /creator pages' forms (app/routes/creator-*.tsx).
 */

const figuresSchema = z.strictObject({
  views: z.number(),
  likes: z.number(),
  favorites: z.number(),
  comments: z.number(),
  followers: z.number(),
});
export const creatorStatsSchema = z.strictObject({
  content: z.strictObject({ articles: z.number(), serials: z.number(), posts: z.number(), books: z.number(), chapters: z.number() }),
  last_7_days: figuresSchema,
  last_30_days: figuresSchema,
  total: figuresSchema,
});

export function presentCreatorStats(stats: CreatorStats): z.infer<typeof creatorStatsSchema> {
  return { content: stats.content, last_7_days: stats.recent[7], last_30_days: stats.recent[30], total: stats.total };
}

/** The hub's figures: content counts, and views, likes, favourites, comments and new followers over 7 and 30 days and in all. */
export const creatorStatsOperation = defineOperation({
  name: "creatorStats",
  input: {},
  viewer: "signed-in",
  run: (services, viewer) => creatorStats(services.db, viewer.id, services.now()),
  present: presentCreatorStats,
  response: creatorStatsSchema,
  failures: [],
});

const cursor = z.string().max(60).optional().catch(undefined);

/** `kind`: one of the registered kinds (article, serial, post, book…); anything else lists every kind. */
export const creatorContentQuery = z.object({
  kind: z
    .string()
    .max(20)
    .optional()
    .catch(undefined)
    .transform((value) => (value && creatorKinds().includes(value) ? value : undefined)),
  q: z.string().max(100).optional().catch(undefined),
  cursor,
});

export const creatorContentPageSchema = z.strictObject({
  items: z.array(
    z.strictObject({
      type: z.string(),
      kind: z.string(),
      id: z.number(),
      circle_id: z.number(),
      title: z.string(),
      status: z.string(),
      views: z.number(),
      likes: z.number(),
      comments: z.number(),
      published_at: z.string(),
      path: z.string(),
      edit_path: z.string(),
    }),
  ),
  next_cursor: z.string().nullable(),
});

export function presentCreatorContentPage(page: CreatorContentPage): z.infer<typeof creatorContentPageSchema> {
  return {
    items: page.items.map((item) => ({
      type: item.type,
      kind: item.kind,
      id: item.id,
      circle_id: item.circleId,
      title: item.title,
      status: item.status,
      views: item.views,
      likes: item.likes,
      comments: item.comments,
      published_at: item.at.toISOString(),
      path: item.path,
      edit_path: item.editPath,
    })),
    next_cursor: page.nextCursor,
  };
}

/** The user's own content, newest first: filter by kind, search titles, paged by cursor. */
export const listCreatorContentOperation = defineOperation({
  name: "listCreatorContent",
  input: { query: creatorContentQuery },
  viewer: "signed-in",
  run: (services, viewer, { query }) => listCreatorContent(services.db, viewer, query),
  present: presentCreatorContentPage,
  response: creatorContentPageSchema,
  failures: [],
});

/** Deletes one of the user's items (`type` writing or book…) with that kind's own rules. */
export const deleteCreatorContentOperation = defineOperation({
  name: "deleteCreatorContent",
  input: { params: z.object({ type: z.string().max(20), id: idSchema }) },
  viewer: "signed-in",
  run: (services, viewer, { params }) => deleteCreatorContent({ db: services.db }, viewer, params.type, params.id),
  present: () => null,
  response: noContent,
  failures: ["not_found", "forbidden"],
});

export const creatorCommentPageSchema = z.strictObject({
  items: z.array(
    z.strictObject({
      id: z.number(),
      body: z.string(),
      created_at: z.string(),
      parent_id: z.number().nullable(),
      author: z.strictObject({ id: z.number(), username: z.string(), nickname: z.string(), avatar: z.string().nullable() }),
      subject: z.strictObject({ type: z.string(), id: z.number(), title: z.string(), path: z.string() }),
    }),
  ),
  next_cursor: z.string().nullable(),
});

export function presentCreatorCommentPage(page: CreatorCommentPage): z.infer<typeof creatorCommentPageSchema> {
  return {
    items: page.items.map((item) => ({
      id: item.id,
      body: item.body,
      created_at: item.createdAt.toISOString(),
      parent_id: item.parentId,
      author: item.author,
      subject: item.subject,
    })),
    next_cursor: page.nextCursor,
  };
}

/** Others' comments and replies on the user's content, newest first, paged by cursor. */
export const listCreatorCommentsOperation = defineOperation({
  name: "listCreatorComments",
  input: { query: z.object({ cursor }) },
  viewer: "signed-in",
  run: (services, viewer, { query }) => listCommentsOnMyContent(services.db, viewer, { cursor: query.cursor }),
  present: presentCreatorCommentPage,
  response: creatorCommentPageSchema,
  failures: [],
});

/** A reply to a comment, on the comment's own subject (the comments service's rules: the subject must be readable, the comment not deleted). */
export const replyFromDeskOperation = defineOperation({
  name: "replyFromCreatorDesk",
  input: { params: z.object({ id: idSchema }), body: z.object({ body: commentBodySchema }) },
  viewer: "signed-in",
  run: async (services, viewer, { params, body }) => {
    const [comment] = await services.db
      .select({ subjectType: comments.subjectType, subjectId: comments.subjectId })
      .from(comments)
      .where(eq(comments.id, params.id))
      .limit(1);
    if (!comment) throw new AppError("not_found");
    return postComment(
      { db: services.db },
      viewer,
      { type: comment.subjectType, id: comment.subjectId },
      { body: body.body, parent_id: params.id },
    );
  },
  present: (comment: PresentedComment) => comment,
  response: presentedCommentSchema,
  failures: ["not_found", "forbidden", "validation_failed", "rate_limited"],
  unexpected: "comment_failed",
});

/** Deletes a comment on the user's content (the comments policy: the subject's author may). */
export const deleteFromDeskOperation = defineOperation({
  name: "deleteCommentFromCreatorDesk",
  input: { params: z.object({ id: idSchema }) },
  viewer: "signed-in",
  run: (services, viewer, { params }) => deleteComment({ db: services.db }, viewer, params.id),
  present: () => null,
  response: noContent,
  failures: ["not_found", "forbidden"],
});
