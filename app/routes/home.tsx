import { data, Link, redirect, useSearchParams } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import type { Route } from "./+types/home";
import { csrfForForm, getAppContext, notFound, privatePageHeaders, tagPage } from "../lib/context.server.ts";
import { languageCookie, localizePath, pageUrl, type Locale } from "../../common/locale.ts";
import { pageMeta } from "../lib/meta.ts";
import { listCircleTree, type CircleNode } from "../../features/circles/service.ts";
import { getCheckinStatus } from "../../features/checkins/service.ts";
import { CircleCards } from "../components/circle-cards.tsx";
import { HomeCheckin } from "../components/home-checkin.tsx";
import { EmptyState } from "../components/empty-state.tsx";
import { FeedList } from "../components/feed-list.tsx";
import { homeFeed } from "../lib/home-feed.server.ts";
import { homeTabs, type HomeTab } from "../lib/home-feed.ts";
import { circlesTag, homeTag } from "../../server/lib/cache-tags.ts";
import circleHomeStyles from "../styles/circle-home.css?url";

const homePaths = new Set(["/", "/en", "/en/"]);
const tabOf = (value: string | null): HomeTab => (homeTabs.includes(value as HomeTab) ? (value as HomeTab) : "latest");

export const meta: Route.MetaFunction = ({ location }) => pageMeta(location, "common:home.title");

/** The feed's cards and the two columns. */
export const links = () => [{ rel: "stylesheet", href: circleHomeStyles }];

export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

type SideCircle = { id: number; name: string; logo: string | null; description: string };
const sideCircle = ({ id, name, logo, description }: CircleNode): SideCircle => ({ id, name, logo, description });

function flatten(nodes: CircleNode[]): CircleNode[] {
  return nodes.flatMap((node) => [node, ...flatten(node.children)]);
}

export async function loader({ context, request }: Route.LoaderArgs) {
  const app = getAppContext(context);
  const url = pageUrl(request.url);
  // React Router ignores `caseSensitive` on index routes, so "/EN" would reach the English home
  // (with Chinese texts, as the language comes from the exact prefix): only the real paths are home.
  if (!homePaths.has(url.pathname)) notFound(request);
  // A visitor who chose English lands on /en when opening the Chinese home page.
  if (url.pathname === "/" && app.cookies[languageCookie] === "en") throw redirect(`/en${url.search}`);
  tagPage(app, homeTag, circlesTag);
  const tab = tabOf(url.searchParams.get("tab"));
  const tree = await listCircleTree(app.db, app.viewer, app.locale);
  const feed = await homeFeed(app, tab, url.searchParams.get("cursor"), tree);
  const circles = flatten(tree);
  const body = {
    signedIn: Boolean(app.viewer),
    feed,
    // The side column: the viewer's circles, or for visitors the circles with the most members.
    myCircles: app.viewer ? circles.filter((circle) => circle.role !== null).map(sideCircle) : [],
    popularCircles: app.viewer
      ? []
      : circles
          .filter((circle) => circle.parentId !== null)
          .sort((a, b) => b.counts.members - a.counts.members || a.id - b.id)
          .slice(0, 6)
          .map(sideCircle),
    checkin: null as Awaited<ReturnType<typeof getCheckinStatus>> | null,
    csrfToken: null as string | null,
  };
  if (!app.viewer) return data(body);
  const csrf = csrfForForm(app);
  return data(
    { ...body, checkin: await getCheckinStatus(app.db, app.viewer.id, app.now()), csrfToken: csrf.token },
    { headers: { ...privatePageHeaders(), ...(csrf.setCookie ? { "Set-Cookie": csrf.setCookie } : {}) } },
  );
}

export default function Home({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("common");
  const locale = i18n.language as Locale;
  const [params] = useSearchParams();
  const tab = tabOf(params.get("tab"));
  const empty: Record<HomeTab, string> = {
    latest: t("home.empty_latest"),
    hot: t("home.empty_hot"),
    all: t("home.empty_all"),
    follow: loaderData.signedIn ? t("home.empty_follow") : t("home.follow_signed_out"),
  };
  const { feed, checkin, csrfToken, myCircles, popularCircles } = loaderData;
  return (
    <div className="home home-layout">
      <div className="home-main">
        <h1 className="visually-hidden">{t("home.heading")}</h1>
        <section className="panel">
          <nav className="tabs-nav" aria-label={t("home.tabs_label")}>
            {homeTabs.map((name) => (
              <Link
                key={name}
                to={name === "latest" ? localizePath("/", locale) : `${localizePath("/", locale)}?tab=${name}`}
                aria-current={tab === name ? "page" : undefined}
                preventScrollReset
              >
                {t(`home.tab_${name}`)}
              </Link>
            ))}
          </nav>
          {feed.cards.length > 0 ? (
            <FeedList
              cards={feed.cards}
              nextCursor={feed.nextCursor}
              moreHref={(cursor) => `${localizePath("/", locale)}?tab=${tab}&cursor=${encodeURIComponent(cursor)}`}
              withAd
            />
          ) : (
            <EmptyState description={empty[tab]}>
              {tab === "follow" && !loaderData.signedIn ? (
                <Link to={`${localizePath("/login", locale)}?next=${encodeURIComponent("/?tab=follow")}`}>{t("nav.login")}</Link>
              ) : (
                <Link to={localizePath("/circles", locale)}>{t("home.explore_circles")}</Link>
              )}
            </EmptyState>
          )}
        </section>
      </div>
      <aside className="home-side" aria-label={t("home.side_label")}>
        {checkin && csrfToken ? (
          <HomeCheckin status={checkin} csrfToken={csrfToken} />
        ) : (
          <section className="panel" aria-labelledby="home-welcome" data-testid="home-sign-in">
            <h2 id="home-welcome" className="page-title">
              {t("home.welcome_title")}
            </h2>
            <p className="muted">{t("home.welcome_text")}</p>
            <p className="circle-actions">
              <Link className="button button-primary" to={localizePath("/login", locale)}>
                {t("nav.login")}
              </Link>
              <Link className="button" to={localizePath("/register", locale)}>
                {t("nav.register")}
              </Link>
            </p>
          </section>
        )}
        <section className="panel" aria-labelledby="home-circles" data-testid="home-circles">
          <h2 id="home-circles" className="page-title">
            {loaderData.signedIn ? t("home.my_circles") : t("home.popular_circles")}
          </h2>
          {(loaderData.signedIn ? myCircles : popularCircles).length > 0 ? (
            <CircleCards circles={loaderData.signedIn ? myCircles : popularCircles} />
          ) : (
            <p className="muted">{t("home.no_circles")}</p>
          )}
          <p>
            <Link to={localizePath("/circles", locale)}>{t("home.explore_circles")}</Link>
          </p>
        </section>
      </aside>
    </div>
  );
}
