import { Link } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import { localizePath, type Locale } from "../../common/locale.ts";
import { ReactionButtons, useReaction, type ReactionState } from "./reaction-buttons.tsx";
import { ThumbIcon } from "./icons.tsx";

/**
 * A comment's compact like and dislike (the like count for everyone, the dislike count for the
 * comment's author only): a plain form post to `/subjects/comment/{id}/reaction` that comes back
 * to the comment without JavaScript, a fetcher's call with it, shown at once and rolled back with
 * the server's message when refused. Visitors get links to sign in and come back.
 */
export function CommentReaction({
  commentId,
  state,
  csrfToken,
  here,
  authorName,
}: {
  commentId: number;
  state: ReactionState;
  /** Null for visitors. */
  csrfToken: string | null;
  /** The page's path and query without the language prefix (where a plain post comes back to). */
  here: string;
  authorName: string;
}) {
  const { t, i18n } = useTranslation("comments");
  const locale = i18n.language as Locale;
  const { fetcher, shown, error } = useReaction(state);
  const like = (
    <>
      <ThumbIcon /> <span className="visually-hidden">{t("like_label", { name: authorName })}</span>
      <span className="action-count" data-testid="comment-like-count">
        {shown.like_count}
      </span>
    </>
  );
  const dislike = (
    <>
      <ThumbIcon down /> <span className="visually-hidden">{t("dislike_label", { name: authorName })}</span>
      {shown.dislike_count !== undefined ? <span className="action-count">{shown.dislike_count}</span> : null}
    </>
  );
  if (!csrfToken) {
    const login = `${localizePath("/login", locale)}?next=${encodeURIComponent(here)}`;
    return (
      <span className="comment-reaction">
        <Link className="comment-react" to={login} rel="nofollow" data-testid="comment-like">
          {like}
        </Link>
        <Link className="comment-react" to={login} rel="nofollow" data-testid="comment-dislike">
          {dislike}
        </Link>
      </span>
    );
  }
  return (
    <fetcher.Form
      method="post"
      action={localizePath(`/subjects/comment/${commentId}/reaction`, locale)}
      className="comment-reaction"
      preventScrollReset
    >
      <input type="hidden" name="csrftoken" value={csrfToken} />
      <input type="hidden" name="next" value={here} />
      <ReactionButtons shown={shown} like={like} dislike={dislike} className="comment-react" testIdPrefix="comment-" />
      {error ? (
        <span className="form-error" role="alert">
          {error}
        </span>
      ) : null}
    </fetcher.Form>
  );
}
