import { Link, redirect, useSearchParams } from "react-router";
import { useTranslation } from "react-i18next";
import type { Route } from "./+types/home";
import { getAppContext, notFound, tagPage } from "../lib/context.server.ts";
import { languageCookie, localizePath, pageUrl, type Locale } from "../../common/locale.ts";
import { pageMeta } from "../lib/meta.ts";
import { listCircleTree } from "../../features/circles/service.ts";
import { CircleCards } from "../components/circle-cards.tsx";
import { EmptyState } from "../components/empty-state.tsx";
import { WritingList } from "../components/writing-list.tsx";
import { listWritings } from "../../features/writings/queries.ts";
import { circlesTag, homeTag } from "../../server/lib/cache-tags.ts";

const homePaths = new Set(["/", "/en", "/en/"]);
const tabs = ["latest", "hot", "all", "follow"] as const;
type Tab = (typeof tabs)[number];

export const meta: Route.MetaFunction = ({ location }) => pageMeta(location, "common:home.title");

export async function loader({ context, request }: Route.LoaderArgs) {
  const app = getAppContext(context);
  const url = pageUrl(request.url);
  // React Router ignores `caseSensitive` on index routes, so "/EN" would reach the English home
  // (with Chinese texts, as the language comes from the exact prefix): only the real paths are home.
  if (!homePaths.has(url.pathname)) notFound(request);
  // A visitor who chose English lands on /en when opening the Chinese home page.
  if (url.pathname === "/" && app.cookies[languageCookie] === "en") throw redirect(`/en${url.search}`);
  tagPage(app, homeTag, circlesTag);
  const requested = url.searchParams.get("tab");
  const tab: Tab = tabs.includes(requested as Tab) ? (requested as Tab) : "latest";
  const [[root], feed] = await Promise.all([
    listCircleTree(app.db, app.viewer, app.locale),
    listWritings(app.db, app.viewer, { tab, cursor: url.searchParams.get("cursor"), limit: 20, locale: app.locale }),
  ]);
  return {
    signedIn: Boolean(app.viewer),
    feed,
    circles: root ? [root, ...root.children].slice(0, 8).map(({ id, name, logo, description }) => ({ id, name, logo, description })) : [],
  };
}

export default function Home({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("common");
  const locale = i18n.language as Locale;
  const [params] = useSearchParams();
  const requested = params.get("tab");
  const tab: Tab = tabs.includes(requested as Tab) ? (requested as Tab) : "latest";
  const empty: Record<Tab, string> = {
    latest: t("home.empty_latest"),
    hot: t("home.empty_hot"),
    all: t("home.empty_all"),
    follow: loaderData.signedIn ? t("home.empty_follow") : t("home.follow_signed_out"),
  };
  return (
    <div className="home">
      <section className="panel">
        <h1 className="page-title">{t("home.welcome_title")}</h1>
        <p className="muted">{t("home.welcome_text")}</p>
      </section>
      <section className="panel">
        <nav className="tabs-nav" aria-label={t("home.tabs_label")}>
          {tabs.map((name) => (
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
        {loaderData.feed.items.length > 0 ? (
          <WritingList
            items={loaderData.feed.items}
            nextCursor={loaderData.feed.nextCursor}
            moreHref={(cursor) => `${localizePath("/", locale)}?tab=${tab}&cursor=${encodeURIComponent(cursor)}`}
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
      <section className="panel" aria-labelledby="home-circles">
        <h2 id="home-circles" className="page-title">
          {t("circles.tree_title")}
        </h2>
        <CircleCards circles={loaderData.circles} />
      </section>
    </div>
  );
}
