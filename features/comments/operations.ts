import { z } from "zod";
import { idSchema } from "../../common/id.ts";
import {
  defineOperation,
  noContent,
  type InputOf,
  type Operation,
  type OperationInput,
  type ViewerRequirement,
} from "../../server/lib/operation.ts";
import {
  commentCursorSchema,
  commentPageSchema,
  commentSortSchema,
  createCommentSchema,
  editCommentSchema,
  mentionCandidatesSchema,
  mentionQuerySchema,
  presentedCommentSchema,
  replyPageSchema,
  type CommentPage,
  type MentionCandidates,
  type PresentedComment,
  type ReplyPage,
} from "./schema.ts";
import { deleteComment, editComment, listCommentsOf, listReplies, postComment } from "./service.ts";
import { mentionCandidates } from "./mentions.ts";

/*
 * The comment operations, served by the API (features/comments/api.ts) and the reading pages'
 * forms (app/lib/comment-pages.server.ts). The services already answer presented rows.
 */

/** Any commentable kind of the subject registry: an unknown or uncommentable type is a 404, like an unknown id. */
const subjectParams = z.object({ type: z.string().max(32), id: idSchema });
const commentParams = z.object({ id: idSchema });
const pageQuery = z.object({ cursor: commentCursorSchema });
const listQuery = z.object({ cursor: commentCursorSchema, sort: commentSortSchema });

/** A comment or a reply (`parent_id`) on any commentable subject: the subject is the path's, never the body's. */
export const commentOnSubject = defineOperation({
  name: "commentOnSubject",
  input: { params: subjectParams, body: createCommentSchema },
  viewer: "signed-in",
  run: (services, viewer, { params, body }) =>
    postComment({ db: services.db, now: services.now() }, viewer, { type: params.type, id: params.id }, body),
  present: (comment: PresentedComment) => comment,
  response: presentedCommentSchema,
  failures: ["not_found", "forbidden", "validation_failed", "rate_limited"],
  unexpected: "comment_failed",
});

/** A subject's comments, ten a page, each with its first replies: newest first, oldest first or most liked first. */
export const listSubjectComments = defineOperation({
  name: "listSubjectComments",
  input: { params: subjectParams, query: listQuery },
  viewer: "optional",
  run: (services, viewer, { params, query }) =>
    listCommentsOf(
      services.db,
      viewer,
      { type: params.type, id: params.id },
      { cursor: query.cursor ?? null, sort: query.sort, now: services.now() },
    ),
  present: (page: CommentPage) => page,
  response: commentPageSchema,
  failures: ["not_found"],
});

/**
 * The same operation on one kind, with only `{id}` in its path (`/api/writings/{id}/comments/`,
 * kept for the clients that call it).
 */
function onKind<I extends OperationInput & { params: typeof subjectParams }, R extends ViewerRequirement, Result, Answer>(
  operation: Operation<I, R, Result, Answer>,
  type: string,
  name: string,
): Operation<Omit<I, "params"> & { params: typeof commentParams }, R, Result, Answer> {
  return {
    ...operation,
    name,
    input: { ...operation.input, params: commentParams },
    run: (services, viewer, input) =>
      operation.run(services, viewer, { ...input, params: { type, id: input.params.id } } as unknown as InputOf<I>),
  };
}

/** `POST /api/writings/{id}/comments/`: `commentOnSubject` on a writing. */
export const commentOnWriting = onKind(commentOnSubject, "writing", "commentOnWriting");
/** `GET /api/writings/{id}/comments/`: `listSubjectComments` of a writing. */
export const listWritingComments = onKind(listSubjectComments, "writing", "listWritingComments");

/** A top-level comment's replies, oldest first. */
export const listCommentReplies = defineOperation({
  name: "listCommentReplies",
  input: { params: commentParams, query: pageQuery },
  viewer: "optional",
  run: (services, viewer, { params, query }) =>
    listReplies(services.db, viewer, params.id, query.cursor ?? null, undefined, services.now()),
  present: (page: ReplyPage) => page,
  response: replyPageSchema,
  failures: ["not_found"],
});

/** Changes a comment's text: its author, within ten minutes of posting. */
export const editCommentOperation = defineOperation({
  name: "editComment",
  input: { params: commentParams, body: editCommentSchema },
  viewer: "signed-in",
  run: (services, viewer, { params, body }) => editComment({ db: services.db, now: services.now() }, viewer, params.id, body),
  present: (comment: PresentedComment) => comment,
  response: presentedCommentSchema,
  failures: ["not_found", "forbidden", "comment_edit_expired", "validation_failed"],
  unexpected: "comment_failed",
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

/** Users to complete an `@` with while typing a comment (signed in: only writers ask). */
export const mentionCandidatesOperation = defineOperation({
  name: "mentionCandidates",
  input: { query: mentionQuerySchema },
  viewer: "signed-in",
  run: (services, viewer, { query }) => mentionCandidates(services.db, viewer, query.q),
  present: (answer: MentionCandidates) => answer,
  response: mentionCandidatesSchema,
  failures: [],
});
