import { z } from "zod";
import { idSchema } from "../../common/id.ts";
import { defineOperation, noContent } from "../../server/lib/operation.ts";
import {
  commentCursorSchema,
  commentPageSchema,
  createCommentSchema,
  presentedCommentSchema,
  replyPageSchema,
  type CommentPage,
  type PresentedComment,
  type ReplyPage,
} from "./schema.ts";
import { deleteComment, listCommentsOf, listReplies, postComment } from "./service.ts";

/*
 * The comment operations, served by the API (features/comments/api.ts) and the reading page's
 * forms (app/lib/comment-pages.server.ts). The services already answer presented rows.
 */

const writingParams = z.object({ id: idSchema });
const commentParams = z.object({ id: idSchema });
const pageQuery = z.object({ cursor: commentCursorSchema });

/** A comment or a reply (`parent_id`) on a writing: the writing is the path's, never the body's. */
export const commentOnWriting = defineOperation({
  name: "commentOnWriting",
  input: { params: writingParams, body: createCommentSchema },
  viewer: "signed-in",
  run: (services, viewer, { params, body }) => postComment({ db: services.db }, viewer, { type: "writing", id: params.id }, body),
  present: (comment: PresentedComment) => comment,
  response: presentedCommentSchema,
  failures: ["not_found", "forbidden", "validation_failed", "rate_limited"],
  unexpected: "comment_failed",
});

/** A writing's comments, newest first, ten a page, each with its first replies. */
export const listWritingComments = defineOperation({
  name: "listWritingComments",
  input: { params: writingParams, query: pageQuery },
  viewer: "optional",
  run: (services, viewer, { params, query }) =>
    listCommentsOf(services.db, viewer, { type: "writing", id: params.id }, query.cursor ?? null),
  present: (page: CommentPage) => page,
  response: commentPageSchema,
  failures: ["not_found"],
});

/** A top-level comment's replies, oldest first. */
export const listCommentReplies = defineOperation({
  name: "listCommentReplies",
  input: { params: commentParams, query: pageQuery },
  viewer: "optional",
  run: (services, viewer, { params, query }) => listReplies(services.db, viewer, params.id, query.cursor ?? null),
  present: (page: ReplyPage) => page,
  response: replyPageSchema,
  failures: ["not_found"],
});

/** Deletes a comment or reply for good (its author, the subject's author, the circle's moderators). */
export const deleteCommentOperation = defineOperation({
  name: "deleteComment",
  input: { params: commentParams },
  viewer: "signed-in",
  run: (services, viewer, { params }) => deleteComment({ db: services.db }, viewer, params.id),
  present: () => null,
  response: noContent,
  failures: ["not_found", "forbidden"],
});
