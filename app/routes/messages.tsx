import { useEffect } from "react";
import { Link, NavLink } from "react-router";
import { useTranslation } from "react-i18next";
import { EmptyState } from "../components/empty-state.tsx";
import type { Route } from "./+types/messages";
import { getAppContext, notFound, requireViewer } from "../lib/context.server.ts";
import { formatDate, localizePath, type Locale } from "../../common/locale.ts";
import { listNewFollowers } from "../../features/follows/service.ts";
import { defaultAvatar } from "../../features/accounts/presenter.ts";
import "../lib/centre-catalog.ts";
import { pageMeta } from "../lib/meta.ts";
import { useSession, useSessionStore } from "../lib/session-store.ts";
import { isMessageCentreCategory, messageCentreCategories, unreadIn, type MessageCentreCategory } from "../../features/messages/schema.ts";

export const meta: Route.MetaFunction = ({ location }) => pageMeta(location, "centre:messages.title");

/** Signed-in only. Opening a category marks it read (the notification lists arrive with messaging). */
export async function loader({ context, params, request }: Route.LoaderArgs) {
  const app = getAppContext(context);
  const viewer = requireViewer(app);
  if (!isMessageCentreCategory(params.category)) notFound(request);
  const category = params.category as MessageCentreCategory;
  // Likes and follows: new followers come from the `user.followed` events (likes arrive with reactions).
  const followers = category === "like_attention" ? await listNewFollowers(app.db, viewer.id) : [];
  return {
    category,
    followers: followers.map((follower) => ({
      ...follower,
      avatar: follower.avatar ?? defaultAvatar,
      followedAt: follower.followedAt.toISOString(),
    })),
  };
}

export default function MessageCentre({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation(["common", "centre"]);
  const locale = i18n.language as Locale;
  const { category } = loaderData;
  const store = useSessionStore();
  const { unread } = useSession();

  useEffect(() => {
    for (const read of messageCentreCategories[category]) {
      void store.markRead(read).catch(() => undefined);
    }
  }, [category, store]);

  const categories = Object.keys(messageCentreCategories) as MessageCentreCategory[];
  return (
    <div className="message-centre">
      <nav className="panel message-nav" aria-label={t("centre:messages.categories")}>
        <h1 className="page-title">{t("centre:messages.title")}</h1>
        <ul>
          {categories.map((name) => {
            const count = unreadIn(name, unread);
            return (
              <li key={name}>
                <NavLink to={localizePath(`/messages/${name}`, locale)}>
                  {t(`centre:messages.category_${name}`)}
                  {count > 0 ? (
                    <span className="message-count" aria-label={t("centre:messages.unread", { count })}>
                      {count}
                    </span>
                  ) : null}
                </NavLink>
              </li>
            );
          })}
        </ul>
      </nav>
      <section className="panel message-list" aria-labelledby="message-category-title">
        <h2 id="message-category-title" className="page-title">
          {t(`centre:messages.category_${category}`)}
        </h2>
        {loaderData.followers.length > 0 ? (
          <ul className="follower-list" aria-label={t("centre:followers_list.heading")} data-testid="new-followers">
            {loaderData.followers.map((follower) => (
              <li key={`${follower.username}-${follower.followedAt}`}>
                <img className="site-avatar-image" src={follower.avatar} alt="" width={32} height={32} />
                <span>
                  <Link to={localizePath(`/profile/${follower.username}`, locale)}>{follower.nickname}</Link>{" "}
                  {t("centre:followers_list.followed_you")}
                  {follower.stillFollowing ? null : <span className="muted"> {t("centre:followers_list.no_longer")}</span>}
                </span>
                <time className="muted" dateTime={follower.followedAt}>
                  {formatDate(follower.followedAt, locale, { dateStyle: "medium", timeStyle: "short" })}
                </time>
              </li>
            ))}
          </ul>
        ) : (
          <EmptyState description={t("centre:messages.empty")} />
        )}
      </section>
    </div>
  );
}
