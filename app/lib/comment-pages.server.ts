import { data, redirect } from "react-router";
import type { AppContext } from "../context.ts";
import { AppError } from "../../common/app-error.ts";
import { idFromText } from "../../common/id.ts";
import { pageUrl } from "../../common/locale.ts";
import { assertFormCsrf, getAppContext, readForm, tagPage } from "./context.server.ts";
import { isCommentSort, type PresentedComment } from "../../features/comments/schema.ts";
import { listComments, listReplies } from "../../features/comments/service.ts";
import { loadCommentSubject, type CommentSubject } from "../../features/comments/subjects.ts";
import { commentOnSubject, deleteCommentOperation, editCommentOperation } from "../../features/comments/operations.ts";
import {
  dispatchIntent,
  failuresOnErrorScreen,
  formAction,
  requireSignedIn,
  type FormFailure,
  type FormHandler,
  type FormPost,
} from "../../server/lib/operation.ts";
import type { CommentFormFailure, CommentsPageData } from "../components/comment-section.tsx";
import { userTags } from "../../server/lib/cache-tags.ts";

const idParam = idFromText;

/** The page's comment order (`?comment_sort=`): newest first unless it names another. */
function sortOf(url: URL) {
  const sort = url.searchParams.get("comment_sort");
  return isCommentSort(sort) ? sort : "newest";
}

/**
 * A reading page's comments (writings, books, chapters, entries: any commentable subject): the
 * page `?comments=<cursor>` in the order `?comment_sort=newest|oldest|liked` (the newest ten by
 * default: one query, remembered like the page's content), a thread opened with
 * `?replies=<id>&after=<id>`, and the notice after a comment, an edit or a deletion. The page
 * carries the subject's comments tag and its commenters' `user:<id>` tags.
 */
export async function commentsSection(app: AppContext, request: Request, subject: CommentSubject): Promise<CommentsPageData> {
  const url = pageUrl(request.url);
  const query = url.searchParams;
  const cursor = idParam(query.get("comments"));
  const sort = sortOf(url);
  const now = app.now();
  const page = await listComments(app.db, app.viewer, subject, { cursor, sort, now });
  const openedId = idParam(query.get("replies"));
  let thread: CommentsPageData["thread"] = null;
  if (openedId !== null && page.items.some((item) => item.id === openedId)) {
    const after = idParam(query.get("after"));
    thread = { id: openedId, after, ...(await listReplies(app.db, app.viewer, openedId, after, subject, now)) };
  }
  const people = new Set<number>();
  for (const item of [...page.items, ...page.items.flatMap((item) => item.replies), ...(thread?.items ?? [])])
    if (item.author) people.add(item.author.id);
  tagPage(app, ...subject.tags.comments, ...userTags(people));
  const notice = query.get("notice");
  return {
    page,
    cursor,
    sort,
    thread,
    notice: notice === "commented" || notice === "deleted" || notice === "edited" ? notice : null,
  };
}

/** The comments section of a subject the page has already shown readable (books, chapters, entries), loaded through the registry. */
export async function commentsSectionOf(
  app: AppContext,
  request: Request,
  subject: { type: string; id: number },
): Promise<CommentsPageData> {
  return commentsSection(app, request, await loadCommentSubject(app.db, app.viewer, subject.type, subject.id));
}

/**
 * The first comments of a subject shown inside another page (an answer's under it on the question
 * page): the newest ten with their first replies, no opened thread; the page carries the
 * subject's comments tag and its commenters' tags.
 */
export async function embeddedCommentsSection(app: AppContext, subject: { type: string; id: number }): Promise<CommentsPageData> {
  const loaded = await loadCommentSubject(app.db, app.viewer, subject.type, subject.id);
  const page = await listComments(app.db, app.viewer, loaded, { cursor: null, sort: "newest", now: app.now() });
  const people = new Set<number>();
  for (const item of [...page.items, ...page.items.flatMap((item) => item.replies)]) if (item.author) people.add(item.author.id);
  tagPage(app, ...loaded.tags.comments, ...userTags(people));
  return { page, cursor: null, sort: "newest", thread: null, notice: null };
}

/** Where the page goes after a comment write: the same page and order of comments, with the notice, at the comment. */
function afterWrite(request: Request, notice: "commented" | "deleted" | "edited", extra: { replies?: number }, anchor: string): never {
  const url = pageUrl(request.url);
  const params = new URLSearchParams();
  const cursor = idParam(url.searchParams.get("comments"));
  const sort = sortOf(url);
  // A new top-level comment shows first among the newest; anything else stays where it was.
  const stay = extra.replies !== undefined || notice !== "commented";
  if (cursor !== null && stay) params.set("comments", String(cursor));
  if (sort !== "newest" && stay) params.set("comment_sort", sort);
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

/** After a comment or reply: the page of comments, the reply's thread open, at the new comment. */
const commented = (comment: PresentedComment, post: FormPost, parentId: number | null) => {
  // A reply joins its top-level comment (the form names it): that thread opens at the new reply.
  const threadId = parentId === null ? undefined : (idParam(post.form.get("thread_id") as string | null) ?? parentId);
  afterWrite(post.request, "commented", { replies: threadId }, `comment-${comment.id}`);
};

/** The subject a page's comment forms are about, from the page's URL (never from the form). */
export type PageSubject = (post: FormPost) => { type: string; id: number | null };

/**
 * A reading page's comment intents, posted as plain forms: `comment`, `reply` (`parent_id`),
 * `edit-comment` (`comment_id`, `body`) and `delete-comment` (`comment_id`, asked first: the answer
 * carries `confirmed=1`). They run the API's operations (features/comments/operations.ts) on the
 * page's subject. Failures answer the form that was sent with its message and the typed text,
 * never the error screen.
 */
export function commentIntentsFor(subjectOf: PageSubject): Record<"comment" | "reply" | "edit-comment" | "delete-comment", FormHandler> {
  return {
    comment: formAction(commentOnSubject, {
      params: subjectOf,
      body: (form) => ({ body: textOf(form, "body"), parent_id: null }),
      done: (comment, post) => commented(comment, post, null),
      failed: (failure, post) => commentFailure(post, failure, "comment"),
    }),
    reply: async (post) => {
      const parentId = idParam(post.form.get("parent_id") as string | null);
      if (parentId === null) throw new AppError("bad_request");
      return formAction(commentOnSubject, {
        params: subjectOf,
        body: (form) => ({ body: textOf(form, "body"), parent_id: parentId }),
        done: (comment, done) => commented(comment, done, parentId),
        failed: (failure, failed) => commentFailure(failed, failure, `reply-${parentId}`),
      })(post);
    },
    "edit-comment": async (post) => {
      const commentId = idParam(post.form.get("comment_id") as string | null);
      if (commentId === null) throw new AppError("bad_request");
      return formAction(editCommentOperation, {
        params: () => ({ id: commentId }),
        body: (form) => ({ body: textOf(form, "body") }),
        done: () => {
          const threadId = idParam(post.form.get("thread_id") as string | null);
          const replies = threadId !== null && threadId !== commentId ? threadId : undefined;
          afterWrite(post.request, "edited", { replies }, `comment-${commentId}`);
        },
        failed: (failure, failed) => commentFailure(failed, failure, `edit-${commentId}`),
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
}

/**
 * The action of a reading page whose only forms are its comments (books, chapters, entries): the
 * CSRF token of the form, then the comment intent it names, on the subject of the page's URL.
 */
export async function commentPageAction(
  args: { context: Parameters<typeof getAppContext>[0]; params: Readonly<Record<string, string | undefined>>; request: Request },
  subjectOf: PageSubject,
) {
  const app = getAppContext(args.context);
  requireSignedIn(app.viewer);
  const form = await readForm(args.request);
  assertFormCsrf(app, form);
  return dispatchIntent({ app, request: args.request, form, params: args.params }, commentIntentsFor(subjectOf));
}

/** The subject named by one path parameter of the page (`bookId`, `chapterId`, `entryId`). */
export const subjectOfParam =
  (type: string, param: string): PageSubject =>
  (post) => ({ type, id: idParam(post.params[param]) });

/** The writing reading page's comment intents: the writing of the page's URL. */
export const commentIntents = commentIntentsFor((post) => ({ type: "writing", id: idParam(post.params.writingId) }));

function textOf(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
}
