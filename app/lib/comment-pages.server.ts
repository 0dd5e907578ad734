import { data, redirect } from "react-router";
import type { AppContext } from "../context.ts";
import { AppError, presentError } from "../../common/app-error.ts";
import { pageUrl } from "../../common/locale.ts";
import { translator } from "../../common/i18n.ts";
import { tagPage } from "./context.server.ts";
import type { CircleAccess } from "../../features/circles/policy.ts";
import { createCommentSchema } from "../../features/comments/schema.ts";
import { deleteComment, listComments, listReplies, postComment } from "../../features/comments/service.ts";
import { writingSubject } from "../../features/writings/subject.ts";
import type { CommentFormFailure, CommentsPageData } from "../components/comment-section.tsx";
import { userTags } from "../../server/lib/cache-tags.ts";

const idPattern = /^\d{1,9}$/;
const idParam = (value: string | null | undefined): number | null =>
  value && idPattern.test(value) && Number(value) > 0 ? Number(value) : null;

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

/**
 * The reading page's comment intents, posted as plain forms: `comment`, `reply` (`parent_id`) and
 * `delete-comment` (`comment_id`, asked first: the answer carries `confirmed=1`). Failures answer
 * the form that was sent with its message and the typed text, never the error screen.
 */
export async function commentAction(app: AppContext, request: Request, form: FormData, intent: "comment" | "reply" | "delete-comment") {
  const viewer = app.viewer;
  if (!viewer) throw new AppError("not_authenticated");
  if (intent === "delete-comment") {
    const commentId = idParam(form.get("comment_id") as string | null);
    if (commentId === null) throw new AppError("bad_request");
    if (form.get("confirmed") !== "1") return { confirmDeleteComment: commentId };
    await deleteComment({ db: app.db }, viewer, commentId);
    const threadId = idParam(form.get("thread_id") as string | null);
    afterWrite(request, "deleted", {}, threadId !== null && threadId !== commentId ? `comment-${threadId}` : "comments");
  }
  const writingId = idParam(form.get("writing_id") as string | null);
  const parentId = intent === "reply" ? idParam(form.get("parent_id") as string | null) : null;
  if (writingId === null || (intent === "reply" && parentId === null)) throw new AppError("bad_request");
  const body = typeof form.get("body") === "string" ? (form.get("body") as string) : "";
  const failure = (answer: Omit<CommentFormFailure, "commentForm" | "values">, status: number) =>
    data<CommentFormFailure>(
      { commentForm: intent === "reply" ? `reply-${parentId}` : "comment", values: { body: body.slice(0, 5000) }, ...answer },
      { status },
    );
  const parsed = createCommentSchema.safeParse({ body, parent_id: parentId });
  if (!parsed.success) {
    const t = translator(app.locale);
    const issue = parsed.error.issues[0];
    const field = String(issue?.path[0] ?? "body");
    return failure({ fieldErrors: { [field]: t(issue?.message ?? "validation:comment_required") } }, 400);
  }
  let created;
  try {
    created = await postComment({ db: app.db }, viewer, { type: "writing", id: writingId }, parsed.data);
  } catch (error) {
    if (error instanceof AppError) {
      if (error.status === 401 || error.status === 404) throw error;
      const presented = presentError(error, app.locale);
      return failure(presented.fields ? { fieldErrors: presented.fields } : { formError: presented.message }, error.status);
    }
    console.error("comment failed", error);
    return failure({ formError: presentError(new AppError("comment_failed"), app.locale).message }, 500);
  }
  // A reply joins its top-level comment (the form names it): that thread opens at the new reply.
  const threadId = parentId === null ? undefined : (idParam(form.get("thread_id") as string | null) ?? parentId);
  afterWrite(request, "commented", { replies: threadId }, `comment-${created.id}`);
}
