import { data, Form, Link, redirect } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import type { Route } from "./+types/creator-comments";
import { assertFormCsrf, getAppContext, readForm, requireViewer } from "../lib/context.server.ts";
import { withFormToken } from "../lib/circle-pages.server.ts";
import { formatDate, localizePath, pageUrl, type Locale } from "../../common/locale.ts";
import { pageMeta } from "../lib/meta.ts";
import { CreatorLayout } from "../components/creator-layout.tsx";
import { ConfirmButton } from "../components/confirm-button.tsx";
import { EmptyState } from "../components/empty-state.tsx";
import { dispatchIntent, failuresOnErrorScreen, formAction, type FormFailure, type FormPost } from "../../server/lib/operation.ts";
import { listCommentsOnMyContent } from "../../features/creator/comments.ts";
import { deleteFromDeskOperation, presentCreatorCommentPage, replyFromDeskOperation } from "../../features/creator/operations.ts";
import { commentMaxLength } from "../../features/comments/constants.ts";
import "../lib/creator-catalog.ts";
import creatorStyles from "../styles/creator.css?url";

export const meta: Route.MetaFunction = ({ location }) => pageMeta(location, "creator:comments.title");
export const links = () => [{ rel: "stylesheet", href: creatorStyles }];
export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

const defaultAvatar = "/default-avatar.svg";

/** `/creator/manage/comment`: readers' comments on the user's content, newest first (`?cursor=`), with reply, delete and report. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const app = getAppContext(context);
  const viewer = requireViewer(app);
  const params = pageUrl(request.url).searchParams;
  const cursor = params.get("cursor");
  const page = presentCreatorCommentPage(
    await listCommentsOnMyContent(app.db, viewer, { cursor: cursor && cursor.length <= 60 ? cursor : null }),
  );
  const notice = params.get("notice");
  return withFormToken(app, { ...page, notice: notice === "replied" || notice === "deleted" ? notice : null });
}

type CommentsAnswer = { confirmDelete?: number; replyTo?: number; error?: string; body?: string };

/** Reply and delete (asked first) as plain form posts that come back to the list (PRG); a refused reply keeps its text and shows why. */
export async function action({ context, request }: Route.ActionArgs) {
  const app = getAppContext(context);
  requireViewer(app);
  const form = await readForm(request);
  assertFormCsrf(app, form);
  const id = () => ({ id: String(form.get("id") ?? "") });
  const back = (notice: string) => `${localizePath("/creator/manage/comment", app.locale)}?notice=${notice}`;
  const reply = formAction(replyFromDeskOperation, {
    params: id,
    done: () => {
      throw redirect(back("replied"), 303);
    },
    failed: (failure: FormFailure) =>
      data(
        {
          replyTo: Number(id().id),
          body: String(form.get("body") ?? ""),
          error: failure.formError ?? Object.values(failure.fieldErrors ?? {})[0] ?? "",
        } satisfies CommentsAnswer,
        { status: failure.status },
      ),
  });
  const remove = async (post: FormPost) => {
    if (post.form.get("confirmed") !== "1") return { confirmDelete: Number(id().id) } satisfies CommentsAnswer;
    return formAction(deleteFromDeskOperation, {
      params: id,
      done: () => {
        throw redirect(back("deleted"), 303);
      },
      ...failuresOnErrorScreen,
    })(post);
  };
  return dispatchIntent({ app, request, form, params: {} }, { reply, delete: remove });
}

export default function CreatorComments({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation(["creator", "common"]);
  const locale = i18n.language as Locale;
  const { items, csrfToken, notice } = loaderData;
  const answer = (actionData ?? {}) as CommentsAnswer;
  const listPath = localizePath("/creator/manage/comment", locale);
  return (
    <CreatorLayout>
      <section className="panel" aria-labelledby="creator-comments-title">
        <h1 id="creator-comments-title" className="page-title">
          {t("comments.title")}
        </h1>
        <p className="muted">{t("comments.intro")}</p>
        {notice ? (
          <p className="notice" role="status">
            {t(notice === "replied" ? "comments.replied" : "comments.deleted")}
          </p>
        ) : null}
        {items.length === 0 ? (
          <EmptyState description={t("comments.empty")} />
        ) : (
          <ol className="creator-comment-list" data-testid="creator-comments">
            {items.map((item) => {
              const name = item.author.nickname || item.author.username;
              const failed = answer.replyTo === item.id;
              return (
                <li key={item.id} className="creator-comment" data-id={item.id}>
                  <p className="creator-comment-meta">
                    <img className="feed-avatar" src={item.author.avatar ?? defaultAvatar} alt="" width={22} height={22} loading="lazy" />
                    <Link to={localizePath(`/profile/${item.author.username}`, locale)}>{name}</Link>
                    <span>{t("comments.on")}</span>
                    <Link to={localizePath(item.subject.path, locale)}>{item.subject.title}</Link>
                    <span aria-hidden="true">·</span>
                    <time dateTime={item.created_at}>
                      {formatDate(item.created_at, locale, { dateStyle: "medium", timeStyle: "short" })}
                    </time>
                    {item.parent_id !== null ? <span className="role-badge">{t("comments.is_reply")}</span> : null}
                  </p>
                  <p className="creator-comment-body">{item.body}</p>
                  <div className="creator-actions">
                    <details className="creator-reply" open={failed || undefined}>
                      <summary className="button">{t("comments.reply")}</summary>
                      <Form method="post" action={listPath}>
                        <input type="hidden" name="csrftoken" value={csrfToken} />
                        <input type="hidden" name="id" value={item.id} />
                        <label htmlFor={`reply-${item.id}`} className="visually-hidden">
                          {t("comments.reply_label", { name })}
                        </label>
                        <textarea
                          id={`reply-${item.id}`}
                          name="body"
                          rows={3}
                          required
                          maxLength={commentMaxLength * 2}
                          placeholder={t("comments.reply_placeholder")}
                          defaultValue={failed ? answer.body : undefined}
                          aria-invalid={failed || undefined}
                          aria-describedby={failed ? `reply-${item.id}-error` : undefined}
                        />
                        {failed && answer.error ? (
                          <p id={`reply-${item.id}-error`} className="form-error" role="alert">
                            {answer.error}
                          </p>
                        ) : null}
                        <button type="submit" name="intent" value="reply" className="button button-primary">
                          {t("comments.send_reply")}
                        </button>
                      </Form>
                    </details>
                    <ConfirmButton
                      id={`delete-comment-${item.id}`}
                      action={listPath}
                      encType="application/x-www-form-urlencoded"
                      csrfToken={csrfToken}
                      intent="delete"
                      fields={{ id: item.id }}
                      label={t("comments.delete")}
                      ariaLabel={t("comments.delete_label", { name })}
                      question={t("comments.delete_question")}
                      confirmLabel={t("comments.delete_confirm")}
                      cancelLabel={t("comments.cancel")}
                      danger
                      asked={answer.confirmDelete === item.id}
                      cancelTo={listPath}
                    />
                    <Link
                      className="button"
                      to={localizePath(`/subjects/comment/${item.id}/report`, locale)}
                      aria-label={t("comments.report_label", { name })}
                      rel="nofollow"
                    >
                      {t("comments.report")}
                    </Link>
                  </div>
                </li>
              );
            })}
          </ol>
        )}
        {loaderData.next_cursor ? (
          <p className="writing-list-more">
            <Link className="button" to={`${listPath}?cursor=${encodeURIComponent(loaderData.next_cursor)}`}>
              {t("comments.more")}
            </Link>
          </p>
        ) : null}
      </section>
    </CreatorLayout>
  );
}
