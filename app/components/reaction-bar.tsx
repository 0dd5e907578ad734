import { Link, useFetcher, useLocation } from "react-router";
import { useTranslation } from "react-i18next";
import { localizePath, stripLocale, type Locale } from "../../common/locale.ts";
import type { ReactionSummary } from "../../features/reactions/viewer-state.ts";

type Reaction = "like" | "dislike";
type Answer = { state?: ReactionSummary; error?: string };

function ThumbIcon({ down }: { down?: boolean }) {
  return (
    <svg
      viewBox="0 0 24 24"
      width="1em"
      height="1em"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      className="line-icon"
      style={down ? { transform: "rotate(180deg)" } : undefined}
    >
      <path d="M7 10v11H3V10zM7 10l4-8a3 3 0 0 1 3 3v4h6a2 2 0 0 1 2 2.3l-1.4 8A2 2 0 0 1 18.6 21H7" />
    </svg>
  );
}

/** The state shown while a press is on its way: the toggle applied to what was last confirmed. */
function optimistic(confirmed: ReactionSummary, wanted: Reaction | "none"): ReactionSummary {
  const next: ReactionSummary = { ...confirmed, reaction: wanted === "none" ? null : wanted };
  const delta = (kind: Reaction) => (next.reaction === kind ? 1 : 0) - (confirmed.reaction === kind ? 1 : 0);
  next.like_count = Math.max(0, confirmed.like_count + delta("like"));
  if (confirmed.dislike_count !== undefined) next.dislike_count = Math.max(0, confirmed.dislike_count + delta("dislike"));
  return next;
}

/**
 * Like and dislike of one subject (Zhihu's 赞同 / 反对): plain form posts to
 * `/subjects/{type}/{id}/reaction` that come back to this page without JavaScript; with it a
 * fetcher's call, shown at once and rolled back with the server's message when refused. Visitors
 * are sent to sign in and brought back. The dislike count shows only to the author.
 */
export function ReactionBar({
  subjectType,
  subjectId,
  summary,
  csrfToken,
}: {
  subjectType: string;
  subjectId: number;
  summary: ReactionSummary;
  /** Null for visitors. */
  csrfToken: string | null;
}) {
  const { t, i18n } = useTranslation("interactions");
  const locale = i18n.language as Locale;
  const location = useLocation();
  const here = stripLocale(location.pathname) + location.search;
  const fetcher = useFetcher<Answer>();
  const confirmed = fetcher.data?.state ?? summary;
  const pending = fetcher.formData?.get("reaction");
  const shown = pending === "like" || pending === "dislike" || pending === "none" ? optimistic(confirmed, pending) : confirmed;
  const error = fetcher.state === "idle" ? fetcher.data?.error : undefined;

  const likeLabel = (
    <>
      <ThumbIcon /> {t("reaction.like")} <span className="action-count">{shown.like_count}</span>
    </>
  );
  const dislikeLabel = (
    <>
      <ThumbIcon down /> {t("reaction.dislike")}
      {shown.dislike_count !== undefined ? <span className="action-count">{shown.dislike_count}</span> : null}
    </>
  );

  if (!csrfToken) {
    const login = `${localizePath("/login", locale)}?next=${encodeURIComponent(here)}`;
    return (
      <div className="action-bar" id="actions" role="group" aria-label={t("bar_label")} data-testid="action-bar">
        <Link className="button action-button" to={login} rel="nofollow" data-testid="like">
          {likeLabel}
        </Link>
        <Link className="button action-button" to={login} rel="nofollow" data-testid="dislike">
          {dislikeLabel}
        </Link>
      </div>
    );
  }
  return (
    <div className="action-bar" id="actions" role="group" aria-label={t("bar_label")} data-testid="action-bar">
      <fetcher.Form method="post" action={localizePath(`/subjects/${subjectType}/${subjectId}/reaction`, locale)} className="action-form">
        <input type="hidden" name="csrftoken" value={csrfToken} />
        <input type="hidden" name="next" value={here} />
        <button
          type="submit"
          name="reaction"
          value={shown.reaction === "like" ? "none" : "like"}
          className="button action-button"
          aria-pressed={shown.reaction === "like"}
          data-testid="like"
        >
          {likeLabel}
        </button>
        <button
          type="submit"
          name="reaction"
          value={shown.reaction === "dislike" ? "none" : "dislike"}
          className="button action-button"
          aria-pressed={shown.reaction === "dislike"}
          data-testid="dislike"
        >
          {dislikeLabel}
        </button>
      </fetcher.Form>
      {error ? (
        <p className="form-error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
