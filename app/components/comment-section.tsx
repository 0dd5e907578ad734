import { lazy, Suspense, useState, type ReactNode } from "react";
import { Form, Link, useLocation } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import { formatDate, localizePath, stripLocale, type Locale } from "../../common/locale.ts";
import { defaultAvatar } from "../../features/accounts/presenter.ts";
import {
  commentMaxLength,
  commentSorts,
  mentionPattern,
  type CommentPage,
  type CommentSort,
  type PresentedComment,
  type PresentedThread,
  type ReplyPage,
} from "../../features/comments/constants.ts";
import { ConfirmButton } from "./confirm-button.tsx";
import { CommentReaction } from "./comment-reaction.tsx";

/** The `@` completion, loaded the first time someone focuses a comment box (never on a page's first load). */
const MentionCompletion = lazy(() => import("./mention-completion.tsx"));
import { ReportControl } from "./report-control.tsx";

/** What the reading page's loader adds for its comments section. */
export interface CommentsPageData {
  page: CommentPage;
  /** The `?comments=` cursor of the page shown (null: the first page). */
  cursor: number | null;
  /** The order (`?comment_sort=`; newest first by default). */
  sort: CommentSort;
  /** A thread opened with `?replies=<id>` (and `&after=<reply id>` for its next replies). */
  thread: (ReplyPage & { id: number; after: number | null }) | null;
  notice: "commented" | "deleted" | "edited" | null;
}

/** What the action answers for one comment form (the form is `comment`, `reply-<parent id>` or `edit-<comment id>`). */
export interface CommentFormFailure {
  commentForm: string;
  formError?: string;
  fieldErrors?: Record<string, string>;
  values?: { body: string };
}

export interface CommentActionData {
  /** The server asks to confirm deleting this comment (the page without JavaScript). */
  confirmDeleteComment?: number;
}

/** A page action's answer split into a comment form's failure and a deletion's question (for pages whose only forms are comments). */
export function commentAnswerOf(actionData: unknown): { failure?: CommentFormFailure; asked?: CommentActionData } {
  if (!actionData || typeof actionData !== "object") return {};
  if ("commentForm" in actionData) return { failure: actionData as CommentFormFailure };
  return { asked: actionData as CommentActionData };
}

const dateTime: Intl.DateTimeFormatOptions = { dateStyle: "medium", timeStyle: "short" };
const linkPattern = /https?:\/\/[^\s<>"'\u3000-\u303f\uff00-\uffef]+/giu;

/** Plain text with http(s) addresses as links that pass no ranking and no opener. */
function linkAddresses(text: string, offset: number, parts: ReactNode[]): void {
  let last = 0;
  for (const match of text.matchAll(linkPattern)) {
    let url = match[0];
    // Sentence punctuation right after an address belongs to the sentence.
    const trailing = /[.,;:!?)\]}]+$/.exec(url);
    if (trailing) url = url.slice(0, -trailing[0].length);
    const start = match.index;
    if (start > last) parts.push(text.slice(last, start));
    parts.push(
      <a key={offset + start} href={url} rel="nofollow ugc noopener">
        {url}
      </a>,
    );
    last = start + url.length;
  }
  if (last < text.length) parts.push(text.slice(last));
}

/**
 * A comment's text as the person wrote it: escaped by React, line breaks kept (CSS `pre-wrap`),
 * http(s) addresses as links that pass no ranking and no opener, and each `@username` of a user
 * the comment mentions as a link to their profile. Never HTML from the user.
 */
export function CommentBody({
  text,
  mentions = [],
  locale = "zh-CN",
}: {
  text: string;
  mentions?: { username: string; nickname: string }[];
  locale?: Locale;
}) {
  const known = new Map(mentions.map((user) => [user.username.toLowerCase(), user]));
  const parts: ReactNode[] = [];
  let last = 0;
  if (known.size > 0) {
    for (const match of text.matchAll(mentionPattern)) {
      const user = known.get(match[2]!.toLowerCase());
      if (!user) continue;
      const start = match.index + match[1]!.length;
      linkAddresses(text.slice(last, start), last, parts);
      parts.push(
        <Link key={`m${start}`} to={localizePath(`/profile/${user.username}`, locale)} className="comment-at" title={user.nickname}>
          @{match[2]}
        </Link>,
      );
      last = start + 1 + match[2]!.length;
    }
  }
  linkAddresses(text.slice(last), last, parts);
  return <p className="comment-body">{parts}</p>;
}

function CommentForm({
  id,
  intent,
  parentId,
  threadId,
  commentId,
  defaultBody,
  csrfToken,
  action,
  failure,
  label,
  placeholder,
  submit,
}: {
  id: string;
  intent: "comment" | "reply" | "edit-comment";
  parentId?: number;
  threadId?: number;
  /** The comment an edit changes. */
  commentId?: number;
  /** The text the box starts with (an edit: the comment's). */
  defaultBody?: string;
  csrfToken: string;
  action: string;
  failure: CommentFormFailure | undefined;
  label: string;
  placeholder: string;
  submit: string;
}) {
  const { t } = useTranslation("comments");
  const error = failure?.fieldErrors?.body ?? failure?.fieldErrors?.parent_id ?? failure?.formError;
  const hint = t("limit_hint", { max: commentMaxLength });
  // The completion's code is fetched the first time this box is focused.
  const [completing, setCompleting] = useState(false);
  const bodyId = `${id}-body`;
  return (
    <Form method="post" action={action} className="comment-form" data-testid={`${id}-form`} preventScrollReset>
      <input type="hidden" name="csrftoken" value={csrfToken} />
      <input type="hidden" name="intent" value={intent} />
      {parentId !== undefined ? <input type="hidden" name="parent_id" value={parentId} /> : null}
      {threadId !== undefined ? <input type="hidden" name="thread_id" value={threadId} /> : null}
      {commentId !== undefined ? <input type="hidden" name="comment_id" value={commentId} /> : null}
      <div className="form-field comment-field">
        <label htmlFor={`${id}-body`} className="visually-hidden">
          {label}
        </label>
        <textarea
          id={bodyId}
          name="body"
          className="text-input text-area"
          rows={3}
          placeholder={placeholder}
          defaultValue={failure?.values?.body ?? defaultBody}
          aria-invalid={error ? true : undefined}
          aria-describedby={`${id}-body-${error ? "error" : "hint"}`}
          onFocus={completing ? undefined : () => setCompleting(true)}
        />
        {completing ? (
          <Suspense fallback={null}>
            <MentionCompletion textareaId={bodyId} />
          </Suspense>
        ) : null}
        {error ? (
          <div className="form-error" id={`${id}-body-error`} role="alert" data-field-error={`${id}-body`}>
            {error}
          </div>
        ) : (
          <div className="form-hint" id={`${id}-body-hint`}>
            {hint}
          </div>
        )}
      </div>
      <button type="submit" className="button button-primary" data-testid={`${id}-submit`}>
        {submit}
      </button>
    </Form>
  );
}

interface ItemContext {
  csrfToken: string | null;
  action: string;
  /** The page without the language prefix: where a like posted without JavaScript comes back to. */
  here: string;
  failure: CommentFormFailure | undefined;
  confirmDelete: number | undefined;
  locale: Locale;
  /** More actions on each comment (a report control), after the built-in ones. */
  extraActions?: (comment: PresentedComment) => ReactNode;
  /** The section is embedded in another page: `action` is the subject's own page. */
  embedded: boolean;
}

/** One comment or reply: who, when (and when edited), the text (or the deleted placeholder), its like toggle, Reply, Edit, Delete and Report when allowed. */
function CommentItem({ comment, threadId, context }: { comment: PresentedComment; threadId: number; context: ItemContext }) {
  const { t } = useTranslation("comments");
  const path = (to: string) => localizePath(to, context.locale);
  const formId = `reply-${comment.id}`;
  const editId = `edit-${comment.id}`;
  const failure = context.failure?.commentForm === formId ? context.failure : undefined;
  const editFailure = context.failure?.commentForm === editId ? context.failure : undefined;
  const live = !comment.deleted && comment.author !== null;
  const extra = live ? context.extraActions?.(comment) : null;
  // Others' comments can be reported (those one may delete are one's own, or on one's own page).
  const reportable = !comment.deleted && comment.author !== null && !comment.can.delete;
  return (
    <article className="comment" id={`comment-${comment.id}`} data-testid="comment" data-comment-id={comment.id}>
      {!live || !comment.author ? (
        <p className="comment-body muted" data-testid="comment-deleted">
          {t("deleted")}
        </p>
      ) : (
        <>
          <header className="comment-meta">
            <img className="comment-avatar" src={comment.author.avatar ?? defaultAvatar} alt="" width={28} height={28} />
            <Link to={path(`/profile/${comment.author.username}`)}>{comment.author.nickname}</Link>
            {comment.reply_to ? (
              <span className="comment-mention">
                {t("replying_to")}{" "}
                <Link to={path(`/profile/${comment.reply_to.username}`)} data-testid="reply-mention">
                  @{comment.reply_to.nickname}
                </Link>
              </span>
            ) : null}
            <time className="muted" dateTime={comment.created_at}>
              {formatDate(comment.created_at, context.locale, dateTime)}
            </time>
            {comment.edited_at ? (
              <span className="muted comment-edited" data-testid="comment-edited">
                {t("edited", { time: formatDate(comment.edited_at, context.locale, dateTime) })}
              </span>
            ) : null}
          </header>
          <CommentBody text={comment.body} mentions={comment.mentions} locale={context.locale} />
        </>
      )}
      {live && comment.author ? (
        <div className="comment-actions">
          <CommentReaction
            commentId={comment.id}
            state={comment}
            csrfToken={context.csrfToken}
            here={context.here}
            authorName={comment.author.nickname}
          />
          {context.csrfToken && comment.can.reply ? (
            <details className="comment-reply" open={failure ? true : undefined}>
              <summary data-testid="reply-toggle">{t("reply")}</summary>
              <CommentForm
                id={formId}
                intent="reply"
                parentId={comment.id}
                threadId={threadId}
                csrfToken={context.csrfToken}
                action={context.action}
                failure={failure}
                label={t("reply_label", { name: comment.author.nickname })}
                placeholder={t("reply_placeholder", { name: comment.author.nickname })}
                submit={t("reply_submit")}
              />
            </details>
          ) : null}
          {context.csrfToken && comment.can.edit ? (
            <details className="comment-reply" open={editFailure ? true : undefined}>
              <summary data-testid="edit-toggle">{t("edit")}</summary>
              <CommentForm
                key={comment.edited_at ?? "new"}
                id={editId}
                intent="edit-comment"
                commentId={comment.id}
                threadId={threadId}
                defaultBody={comment.body}
                csrfToken={context.csrfToken}
                action={context.action}
                failure={editFailure}
                label={t("edit_label")}
                placeholder={t("placeholder")}
                submit={t("edit_submit")}
              />
            </details>
          ) : null}
          {context.csrfToken && comment.can.delete ? (
            <ConfirmButton
              id={`delete-comment-${comment.id}`}
              action={context.action}
              encType="application/x-www-form-urlencoded"
              csrfToken={context.csrfToken}
              intent="delete-comment"
              fields={{ comment_id: comment.id, thread_id: threadId }}
              label={t("delete")}
              ariaLabel={t("delete_label", { name: comment.author.nickname })}
              question={t("delete_question")}
              confirmLabel={t("delete_confirm")}
              cancelLabel={t("cancel")}
              danger
              asked={context.confirmDelete === comment.id}
              cancelTo={`${context.action}#comment-${comment.id}`}
            />
          ) : null}
          {extra}
          {reportable ? (
            <ReportControl
              subjectType="comment"
              subjectId={comment.id}
              csrfToken={context.csrfToken}
              next={`${stripLocale(context.action)}#comment-${comment.id}`}
              className="comment-report"
            />
          ) : null}
        </div>
      ) : null}
    </article>
  );
}

/** `?` + the page's comment parameters (the order and cursor kept, so a thread opens where it is listed). */
function commentQuery(cursor: number | null, sort: CommentSort, extra: Record<string, string | number> = {}): string {
  const params = new URLSearchParams();
  if (cursor !== null) params.set("comments", String(cursor));
  if (sort !== "newest") params.set("comment_sort", sort);
  for (const [name, value] of Object.entries(extra)) params.set(name, String(value));
  const query = params.toString();
  return query ? `?${query}` : "?";
}

function Thread({ thread, comments, context }: { thread: PresentedThread; comments: CommentsPageData; context: ItemContext }) {
  // Embedded: the thread's further replies are on the subject's own page.
  const threadHref = (extra: Record<string, string | number>) =>
    context.embedded
      ? `${context.action}${commentQuery(null, "newest", extra)}#comment-${thread.id}`
      : `${commentQuery(comments.cursor, comments.sort, extra)}#comment-${thread.id}`;
  const { t } = useTranslation("comments");
  const opened = comments.thread?.id === thread.id ? comments.thread : null;
  const replies = opened ? opened.items : thread.replies;
  const hidden = thread.reply_count - thread.replies.length;
  return (
    <li className="comment-thread">
      <CommentItem comment={thread} threadId={thread.id} context={context} />
      {replies.length > 0 ? (
        <ol className="comment-replies" aria-label={t("replies", { name: thread.author?.nickname ?? t("deleted") })}>
          {replies.map((reply) => (
            <li key={reply.id}>
              <CommentItem comment={reply} threadId={thread.id} context={context} />
            </li>
          ))}
        </ol>
      ) : null}
      {opened ? (
        <p className="comment-more">
          {opened.next_cursor !== null ? (
            <Link
              to={`${commentQuery(comments.cursor, comments.sort, { replies: thread.id, after: opened.next_cursor })}#comment-${thread.id}`}
              data-testid="next-replies"
            >
              {t("next_replies")}
            </Link>
          ) : null}{" "}
          <Link to={`${commentQuery(comments.cursor, comments.sort)}#comment-${thread.id}`}>{t("fewer_replies")}</Link>
        </p>
      ) : hidden > 0 ? (
        <p className="comment-more">
          <Link to={threadHref({ replies: thread.id })} data-testid="more-replies">
            {t("more_replies", { count: hidden })}
          </Link>
        </p>
      ) : null}
    </li>
  );
}

/**
 * A reading page's comments (writings, books, chapters, entries): ten top-level comments with up
 * to three replies each, newest first, oldest first or most liked first, links to more
 * (query-string cursors, so they work without JavaScript), a form to comment and one to reply under
 * each comment, a like toggle on each, editing within ten minutes, and deleting with a
 * confirmation. Every form is a plain post to the page's action; with JavaScript it is sent
 * without reloading the page and keeps the typed text on an error.
 */
export function CommentSection({
  comments,
  csrfToken,
  signedIn,
  failure,
  actionData,
  extraActions,
  embedded,
}: {
  comments: CommentsPageData;
  csrfToken: string | null;
  signedIn: boolean;
  failure: CommentFormFailure | undefined;
  actionData: CommentActionData | undefined;
  /** More actions on each comment (a report control), shown after Reply, Edit and Delete. */
  extraActions?: (comment: PresentedComment) => ReactNode;
  /**
   * The first comments of a subject shown inside another page (an answer's under it on the
   * question page): its forms post to the subject's own page (`path`, with the language prefix),
   * which takes over after a write; the orders and "more" links lead there too.
   */
  embedded?: { id: string; path: string };
}) {
  const { t, i18n } = useTranslation("comments");
  const locale = i18n.language as Locale;
  const location = useLocation();
  const action = embedded ? embedded.path : location.pathname + location.search;
  const sectionId = embedded?.id ?? "comments";
  const here = stripLocale(location.pathname) + location.search;
  const context: ItemContext = {
    csrfToken,
    action,
    here,
    failure,
    confirmDelete: actionData?.confirmDeleteComment,
    locale,
    extraActions,
    embedded: embedded !== undefined,
  };
  const { page } = comments;
  const loginTo = `${localizePath("/login", locale)}?next=${encodeURIComponent(location.pathname)}`;
  return (
    <section
      className={embedded ? "comments comments-embedded" : "panel comments"}
      id={sectionId}
      aria-labelledby={`${sectionId}-title`}
      data-testid={embedded ? "embedded-comments" : "comments"}
    >
      <h2 id={`${sectionId}-title`} className={embedded ? "visually-hidden" : undefined}>
        {t("title", { count: page.total })}
      </h2>
      {comments.notice ? (
        <p className="notice" role="status" data-testid="comment-notice">
          {t(`notice.${comments.notice}`)}
        </p>
      ) : null}
      {csrfToken ? (
        // A new key after each new comment: the form comes back empty; after an error it keeps what was typed.
        <CommentForm
          key={page.total}
          id={embedded ? `${sectionId}-comment` : "comment"}
          intent="comment"
          csrfToken={csrfToken}
          action={action}
          failure={failure?.commentForm === "comment" ? failure : undefined}
          label={t("label")}
          placeholder={t("placeholder")}
          submit={t("submit")}
        />
      ) : !signedIn ? (
        <p>
          <Link className="button" to={loginTo} data-testid="comment-login">
            {t("login")}
          </Link>
        </p>
      ) : null}
      {page.total > 1 && !embedded ? (
        <nav className="comment-sorts" aria-label={t("sort_label")} data-testid="comment-sorts">
          {commentSorts.map((sort) => (
            <Link
              key={sort}
              to={`${commentQuery(null, sort)}#comments`}
              aria-current={comments.sort === sort ? "true" : undefined}
              preventScrollReset
              data-testid={`comment-sort-${sort}`}
            >
              {t(`sort.${sort}`)}
            </Link>
          ))}
        </nav>
      ) : null}
      {page.items.length === 0 ? (
        <p className="muted">{t("empty")}</p>
      ) : (
        <ol className="comment-list" aria-label={t("list")}>
          {page.items.map((thread) => (
            <Thread key={`${thread.id}-${thread.reply_count}`} thread={thread} comments={comments} context={context} />
          ))}
        </ol>
      )}
      {embedded && page.next_cursor !== null ? (
        <p className="comment-more">
          <Link to={`${embedded.path}#comments`} data-testid="all-comments">
            {t("more_comments")}
          </Link>
        </p>
      ) : null}
      {!embedded && (comments.cursor !== null || page.next_cursor !== null) ? (
        <p className="comment-more">
          {page.next_cursor !== null ? (
            <Link to={`${commentQuery(page.next_cursor, comments.sort)}#comments`} data-testid="more-comments">
              {t("more_comments")}
            </Link>
          ) : null}{" "}
          {comments.cursor !== null ? <Link to={`${commentQuery(null, comments.sort)}#comments`}>{t("first_comments")}</Link> : null}
        </p>
      ) : null}
    </section>
  );
}
