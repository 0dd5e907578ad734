import type { ReactNode } from "react";
import { Form, Link, useLocation } from "react-router";
import { useTranslation } from "react-i18next";
import { formatDate, localizePath, stripLocale, type Locale } from "../../common/locale.ts";
import { defaultAvatar } from "../../features/accounts/presenter.ts";
import {
  commentMaxLength,
  type CommentPage,
  type PresentedComment,
  type PresentedThread,
  type ReplyPage,
} from "../../features/comments/constants.ts";
import { ConfirmButton } from "./confirm-button.tsx";
import { ReportControl } from "./report-control.tsx";

/** What the reading page's loader adds for its comments section. */
export interface CommentsPageData {
  page: CommentPage;
  /** The `?comments=` cursor of the page shown (null: the newest). */
  cursor: number | null;
  /** A thread opened with `?replies=<id>` (and `&after=<reply id>` for its next replies). */
  thread: (ReplyPage & { id: number; after: number | null }) | null;
  notice: "commented" | "deleted" | null;
}

/** What the action answers for one comment form (the form is `comment` or `reply-<parent id>`). */
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

const dateTime: Intl.DateTimeFormatOptions = { dateStyle: "medium", timeStyle: "short" };
const linkPattern = /https?:\/\/[^\s<>"'\u3000-\u303f\uff00-\uffef]+/giu;

/**
 * A comment's text as the person wrote it: escaped by React, line breaks kept (CSS `pre-wrap`),
 * http(s) addresses as links that pass no ranking and no opener. Never HTML from the user.
 */
export function CommentBody({ text }: { text: string }) {
  const parts: ReactNode[] = [];
  let last = 0;
  for (const match of text.matchAll(linkPattern)) {
    let url = match[0];
    // Sentence punctuation right after an address belongs to the sentence.
    const trailing = /[.,;:!?)\]}]+$/.exec(url);
    if (trailing) url = url.slice(0, -trailing[0].length);
    const start = match.index;
    if (start > last) parts.push(text.slice(last, start));
    parts.push(
      <a key={start} href={url} rel="nofollow ugc noopener">
        {url}
      </a>,
    );
    last = start + url.length;
  }
  if (last < text.length) parts.push(text.slice(last));
  return <p className="comment-body">{parts}</p>;
}

function CommentForm({
  id,
  intent,
  parentId,
  threadId,
  csrfToken,
  action,
  failure,
  label,
  placeholder,
  submit,
}: {
  id: string;
  intent: "comment" | "reply";
  parentId?: number;
  threadId?: number;
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
  return (
    <Form method="post" action={action} className="comment-form" data-testid={`${id}-form`} preventScrollReset>
      <input type="hidden" name="csrftoken" value={csrfToken} />
      <input type="hidden" name="intent" value={intent} />
      {parentId !== undefined ? <input type="hidden" name="parent_id" value={parentId} /> : null}
      {threadId !== undefined ? <input type="hidden" name="thread_id" value={threadId} /> : null}
      <div className="form-field">
        <label htmlFor={`${id}-body`} className="visually-hidden">
          {label}
        </label>
        <textarea
          id={`${id}-body`}
          name="body"
          className="text-input text-area"
          rows={3}
          placeholder={placeholder}
          defaultValue={failure?.values?.body}
          aria-invalid={error ? true : undefined}
          aria-describedby={`${id}-body-${error ? "error" : "hint"}`}
        />
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
  failure: CommentFormFailure | undefined;
  confirmDelete: number | undefined;
  locale: Locale;
}

/** One comment or reply: who, when, the text (or the deleted placeholder), Reply, Delete and Report when allowed. */
function CommentItem({ comment, threadId, context }: { comment: PresentedComment; threadId: number; context: ItemContext }) {
  const { t } = useTranslation("comments");
  const path = (to: string) => localizePath(to, context.locale);
  const formId = `reply-${comment.id}`;
  const failure = context.failure?.commentForm === formId ? context.failure : undefined;
  // Others' comments can be reported (those one may delete are one's own, or on one's own page).
  const reportable = !comment.deleted && comment.author !== null && !comment.can.delete;
  return (
    <article className="comment" id={`comment-${comment.id}`} data-testid="comment" data-comment-id={comment.id}>
      {comment.deleted || !comment.author ? (
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
          </header>
          <CommentBody text={comment.body} />
        </>
      )}
      {context.csrfToken && (comment.can.reply || comment.can.delete || reportable) ? (
        <div className="comment-actions">
          {comment.can.reply && comment.author ? (
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
          {comment.can.delete ? (
            <ConfirmButton
              id={`delete-comment-${comment.id}`}
              action={context.action}
              encType="application/x-www-form-urlencoded"
              csrfToken={context.csrfToken}
              intent="delete-comment"
              fields={{ comment_id: comment.id, thread_id: threadId }}
              label={t("delete")}
              ariaLabel={t("delete_label", { name: comment.author?.nickname ?? "" })}
              question={t("delete_question")}
              confirmLabel={t("delete_confirm")}
              cancelLabel={t("cancel")}
              danger
              asked={context.confirmDelete === comment.id}
              cancelTo={`${context.action}#comment-${comment.id}`}
            />
          ) : null}
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

/** `?` + the page's comment parameters (the cursor kept, so a thread opens where it is listed). */
function commentQuery(cursor: number | null, extra: Record<string, string | number> = {}): string {
  const params = new URLSearchParams();
  if (cursor !== null) params.set("comments", String(cursor));
  for (const [name, value] of Object.entries(extra)) params.set(name, String(value));
  const query = params.toString();
  return query ? `?${query}` : "?";
}

function Thread({ thread, comments, context }: { thread: PresentedThread; comments: CommentsPageData; context: ItemContext }) {
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
              to={`${commentQuery(comments.cursor, { replies: thread.id, after: opened.next_cursor })}#comment-${thread.id}`}
              data-testid="next-replies"
            >
              {t("next_replies")}
            </Link>
          ) : null}{" "}
          <Link to={`${commentQuery(comments.cursor)}#comment-${thread.id}`}>{t("fewer_replies")}</Link>
        </p>
      ) : hidden > 0 ? (
        <p className="comment-more">
          <Link to={`${commentQuery(comments.cursor, { replies: thread.id })}#comment-${thread.id}`} data-testid="more-replies">
            {t("more_replies", { count: hidden })}
          </Link>
        </p>
      ) : null}
    </li>
  );
}

/**
 * The reading page's comments: the newest ten top-level comments with up to three replies each,
 * links to more (query-string cursors, so they work without JavaScript), a form to comment and one
 * to reply under each comment, and deleting with a confirmation. Every form is a plain post to the
 * page's action; with JavaScript it is sent without reloading the page and keeps the typed text on
 * an error.
 */
export function CommentSection({
  comments,
  csrfToken,
  signedIn,
  failure,
  actionData,
}: {
  comments: CommentsPageData;
  csrfToken: string | null;
  signedIn: boolean;
  failure: CommentFormFailure | undefined;
  actionData: CommentActionData | undefined;
}) {
  const { t, i18n } = useTranslation("comments");
  const locale = i18n.language as Locale;
  const location = useLocation();
  const action = location.pathname + location.search;
  const context: ItemContext = { csrfToken, action, failure, confirmDelete: actionData?.confirmDeleteComment, locale };
  const { page } = comments;
  const loginTo = `${localizePath("/login", locale)}?next=${encodeURIComponent(location.pathname)}`;
  return (
    <section className="panel comments" id="comments" aria-labelledby="comments-title" data-testid="comments">
      <h2 id="comments-title">{t("title", { count: page.total })}</h2>
      {comments.notice ? (
        <p className="notice" role="status" data-testid="comment-notice">
          {t(`notice.${comments.notice}`)}
        </p>
      ) : null}
      {csrfToken ? (
        // A new key after each new comment: the form comes back empty; after an error it keeps what was typed.
        <CommentForm
          key={page.total}
          id="comment"
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
      {page.items.length === 0 ? (
        <p className="muted">{t("empty")}</p>
      ) : (
        <ol className="comment-list" aria-label={t("list")}>
          {page.items.map((thread) => (
            <Thread key={`${thread.id}-${thread.reply_count}`} thread={thread} comments={comments} context={context} />
          ))}
        </ol>
      )}
      {comments.cursor !== null || page.next_cursor !== null ? (
        <p className="comment-more">
          {page.next_cursor !== null ? (
            <Link to={`${commentQuery(page.next_cursor)}#comments`} data-testid="more-comments">
              {t("more_comments")}
            </Link>
          ) : null}{" "}
          {comments.cursor !== null ? <Link to={`${commentQuery(null)}#comments`}>{t("newest_comments")}</Link> : null}
        </p>
      ) : null}
    </section>
  );
}
