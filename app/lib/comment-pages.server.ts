import { data, redirect } from "react-router";
import type { AppContext } from "../context.ts";
import { AppError } from "../../common/app-error.ts";
import { idFromText } from "../../common/id.ts";
import { pageUrl } from "../../common/locale.ts";
import { tagPage } from "./context.server.ts";
import type { CircleAccess } from "../../features/circles/policy.ts";
import type { PresentedComment } from "../../features/comments/schema.ts";
import { listComments, listReplies } from "../../features/comments/service.ts";
import { commentOnWriting, deleteCommentOperation } from "../../features/comments/operations.ts";
import { failuresOnErrorScreen, formAction, type FormFailure, type FormHandler, type FormPost } from "../../server/lib/operation.ts";
import { writingSubject } from "../../features/writings/subject.ts";
import type { CommentFormFailure, CommentsPageData } from "../components/comment-section.tsx";
import { userTags } from "../../server/lib/cache-tags.ts";

const idParam = idFromText;

/**
 * The reading page's comments: the page `?comments=<cursor>` (the newest ten by default: one
 * query, remembered like the page's content), a thread opened with `?replies=<id>&after=<id>`,
 * and the notice after a comment or a deletion. The page carries its commenters' `user:<id>` tags.
 */
export async function commentsSection(
  app: AppContext,
  request: Request,
  row: Parameters<typeof writingSubject>[0],
  access: CircleAccess,
): Promise<CommentsPageData> {
  const query = pageUrl(request.url).searchParams;
  const subject = writingSubject(row, access);
  const cursor = idParam(query.get("comments"));
  const page = await listComments(app.db, app.viewer, subject, cursor);
  const openedId = idParam(query.get("replies"));
  let thread: CommentsPageData["thread"] = null;
  if (openedId !== null && page.items.some((item) => item.id === openedId)) {
    const after = idParam(query.get("after"));
    thread = { id: openedId, after, ...(await listReplies(app.db, app.viewer, openedId, after, subject)) };
  }
  const people = new Set<number>();
  for (const item of [...page.items, ...page.items.flatMap((item) => item.replies), ...(thread?.items ?? [])])
    if (item.author) people.add(item.author.id);
  tagPage(app, ...userTags(people));
  const notice = query.get("notice");
  return { page, cursor, thread, notice: notice === "commented" || notice === "deleted" ? notice : null };
}

/** Where the page goes after a comment write: the same page of comments, with the notice, at the comment. */
function afterWrite(request: Request, notice: "commented" | "deleted", extra: { replies?: number }, anchor: string): never {
  const url = pageUrl(request.url);
  const params = new URLSearchParams();
  const cursor = idParam(url.searchParams.get("comments"));
  if (cursor !== null && extra.replies !== undefined) params.set("comments", String(cursor));
  if (cursor !== null && notice === "deleted") params.set("comments", String(cursor));
  if (extra.replies !== undefined) params.set("replies", String(extra.replies));
  params.set("notice", notice);
  throw redirect(`${url.pathname}?${params.toString()}#${anchor}`);
}

const commentFailure = (post: FormPost, failure: FormFailure, form: string) =>
  data<CommentFormFailure>(
    {
      commentForm: form,
      values: { body: String(post.form.get("body") ?? "").slice(0, 5000) },
      ...(failure.fieldErrors ? { fieldErrors: failure.fieldErrors } : { formError: failure.formError }),
    },
    { status: failure.status },
  );

/** The writing the page shows: the subject is the URL's, whatever the form says. */
const writingOfPage = (post: FormPost) => ({ id: idParam(post.params.writingId) });

/** After a comment or reply: the page of comments, the reply's thread open, at the new comment. */
const commented = (comment: PresentedComment, post: FormPost, parentId: number | null) => {
  // A reply joins its top-level comment (the form names it): that thread opens at the new reply.
  const threadId = parentId === null ? undefined : (idParam(post.form.get("thread_id") as string | null) ?? parentId);
  afterWrite(post.request, "commented", { replies: threadId }, `comment-${comment.id}`);
};

/**
 * The reading page's comment intents, posted as plain forms: `comment`, `reply` (`parent_id`) and
 * `delete-comment` (`comment_id`, asked first: the answer carries `confirmed=1`). They run the
 * API's operations (features/comments/operations.ts). Failures answer the form that was sent with
 * its message and the typed text, never the error screen.
 */
export const commentIntents: Record<"comment" | "reply" | "delete-comment", FormHandler> = {
  comment: formAction(commentOnWriting, {
    params: writingOfPage,
    body: (form) => ({ body: textOf(form, "body"), parent_id: null }),
    done: (comment, post) => commented(comment, post, null),
    failed: (failure, post) => commentFailure(post, failure, "comment"),
  }),
  reply: async (post) => {
    const parentId = idParam(post.form.get("parent_id") as string | null);
    if (parentId === null) throw new AppError("bad_request");
    return formAction(commentOnWriting, {
      params: writingOfPage,
      body: (form) => ({ body: textOf(form, "body"), parent_id: parentId }),
      done: (comment, done) => commented(comment, done, parentId),
      failed: (failure, failed) => commentFailure(failed, failure, `reply-${parentId}`),
    })(post);
  },
  "delete-comment": async (post) => {
    const commentId = idParam(post.form.get("comment_id") as string | null);
    if (commentId === null) throw new AppError("bad_request");
    if (post.form.get("confirmed") !== "1") return { confirmDeleteComment: commentId };
    return formAction(deleteCommentOperation, {
      params: () => ({ id: commentId }),
      done: () => {
        const threadId = idParam(post.form.get("thread_id") as string | null);
        afterWrite(post.request, "deleted", {}, threadId !== null && threadId !== commentId ? `comment-${threadId}` : "comments");
      },
      // Deleting is a button, not a form with fields: a refusal is the error screen.
      ...failuresOnErrorScreen,
    })(post);
  },
};

function textOf(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
}
