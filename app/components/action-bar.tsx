import { lazy, type ReactNode } from "react";
import { Link, useFetcher, useLocation } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import { localizePath, stripLocale, type Locale } from "../../common/locale.ts";
import type { InteractionSummary } from "../../features/reactions/viewer-state.ts";
import { SharePanel } from "./share-panel.tsx";
import { CoinIcon, StarIcon, ThumbIcon } from "./icons.tsx";
import { DialogLink } from "./dialog-link.tsx";

const TipDialog = lazy(() => import("./tip-dialog.tsx"));
import { ReportControl } from "./report-control.tsx";
import { ReactionButtons, useReaction } from "./reaction-buttons.tsx";

type FavoriteState = { favorited: boolean; favorite_count: number };
type Answer<State> = { state?: State; error?: string };

function optimisticFavorite(confirmed: FavoriteState, wanted: boolean): FavoriteState {
  if (wanted === confirmed.favorited) return confirmed;
  return { favorited: wanted, favorite_count: Math.max(0, confirmed.favorite_count + (wanted ? 1 : -1)) };
}

/**
 * One subject's action bar: like and dislike (Zhihu's 赞同 / 反对), favourite (收藏), tip (赞赏, its page
 * without JavaScript, a lazily loaded dialog with it), share and
 * report (举报, `ReportControl`: its page without JavaScript, a lazily loaded dialog with it), each
 * only when its kind's registration accepts it (`summary.accepts`, `summary.tips`). Each
 * button is a plain form post to `/subjects/{type}/{id}/…` that comes back to this page without
 * JavaScript; with it a fetcher's call, shown at once and rolled back with the server's message
 * when refused. Visitors are sent to sign in and brought back. The dislike count shows only to
 * the author.
 */
export function ActionBar({
  subjectType,
  subjectId,
  summary,
  csrfToken,
  title = "",
}: {
  subjectType: string;
  subjectId: number;
  summary: InteractionSummary;
  /** Null for visitors. */
  csrfToken: string | null;
  /** The page's title, for the system's share sheet. */
  title?: string;
}) {
  const { t, i18n } = useTranslation("interactions");
  const locale = i18n.language as Locale;
  const location = useLocation();
  const here = stripLocale(location.pathname) + location.search;
  const { fetcher: reactionFetcher, shown: reaction, error: reactionError } = useReaction(summary);
  const favoriteFetcher = useFetcher<Answer<FavoriteState>>();

  const confirmedFavorite: FavoriteState = favoriteFetcher.data?.state ?? summary;
  const pendingFavorite = favoriteFetcher.formData?.get("favorite");
  const favorite =
    pendingFavorite === "on" || pendingFavorite === "off"
      ? optimisticFavorite(confirmedFavorite, pendingFavorite === "on")
      : confirmedFavorite;
  const error = reactionError ?? (favoriteFetcher.state === "idle" ? favoriteFetcher.data?.error : undefined);

  const likeLabel = (
    <>
      <ThumbIcon /> {t("reaction.like")} <span className="action-count">{reaction.like_count}</span>
    </>
  );
  const dislikeLabel = (
    <>
      <ThumbIcon down /> {t("reaction.dislike")}
      {reaction.dislike_count !== undefined ? <span className="action-count">{reaction.dislike_count}</span> : null}
    </>
  );
  const favoriteLabel = (
    <>
      <StarIcon /> {favorite.favorited ? t("favorite.favorited") : t("favorite.favorite")}{" "}
      <span className="action-count">{favorite.favorite_count}</span>
    </>
  );

  const subjectPath = (action: string) => localizePath(`/subjects/${subjectType}/${subjectId}/${action}`, locale);
  const { accepts } = summary;
  // Visitors' buttons are links to sign in, back here after.
  const login = `${localizePath("/login", locale)}?next=${encodeURIComponent(here)}`;
  const loginLink = (testId: string, label: ReactNode) => (
    <Link className="button action-button" to={login} rel="nofollow" data-testid={testId}>
      {label}
    </Link>
  );
  const formFields = (
    <>
      <input type="hidden" name="csrftoken" value={csrfToken ?? ""} />
      <input type="hidden" name="next" value={here} />
    </>
  );
  return (
    <div className="action-bar" id="actions" role="group" aria-label={t("bar_label")} data-testid="action-bar">
      {!accepts.reactions ? null : csrfToken ? (
        <reactionFetcher.Form method="post" action={subjectPath("reaction")} className="action-form">
          {formFields}
          <ReactionButtons shown={reaction} like={likeLabel} dislike={dislikeLabel} className="button action-button" />
        </reactionFetcher.Form>
      ) : (
        <>
          {loginLink("like", likeLabel)}
          {loginLink("dislike", dislikeLabel)}
        </>
      )}
      {!accepts.favorites ? null : csrfToken ? (
        <favoriteFetcher.Form method="post" action={subjectPath("favorite")} className="action-form">
          {formFields}
          <button
            type="submit"
            name="favorite"
            value={favorite.favorited ? "off" : "on"}
            className="button action-button"
            aria-pressed={favorite.favorited}
            data-testid="favorite"
          >
            {favoriteLabel}
          </button>
        </favoriteFetcher.Form>
      ) : (
        loginLink("favorite", favoriteLabel)
      )}
      {/* Tips (赞赏): a link to its tip page, enhanced into a lazily loaded dialog; whether the kind and this subject accept them came with the loader data. */}
      {summary.tips ? (
        <DialogLink
          to={`${subjectPath("tip")}?${new URLSearchParams({ next: here })}`}
          testId="tip"
          dialog={csrfToken ? (close) => <TipDialog subjectType={subjectType} subjectId={subjectId} onClose={close} /> : null}
        >
          <CoinIcon /> {t("tip")}
        </DialogLink>
      ) : null}
      {accepts.shares ? (
        <SharePanel
          subjectType={subjectType}
          subjectId={subjectId}
          path={localizePath(here, locale)}
          title={title}
          count={summary.share_count}
        />
      ) : null}
      {accepts.reports ? <ReportControl subjectType={subjectType} subjectId={subjectId} csrfToken={csrfToken} next={here} /> : null}
      {favorite.favorited ? (
        <Link className="action-link" to={localizePath("/account/store", locale)} data-testid="favorites-link">
          {t("favorite.manage")}
        </Link>
      ) : null}
      {error ? (
        <p className="form-error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
