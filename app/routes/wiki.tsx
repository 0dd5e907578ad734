import { data, Form, Link } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import type { Route } from "./+types/wiki";
import { getAppContext } from "../lib/context.server.ts";
import { pageMeta } from "../lib/meta.ts";
import { formatDate, localizePath, pageUrl, type Locale } from "../../common/locale.ts";
import { searchEntries } from "../../features/encyclopedia/service.ts";
import { circleNamesById, siteWikiHome } from "../../features/encyclopedia/site-home.ts";
import { EmptyState } from "../components/empty-state.tsx";
import { EntryList } from "../components/entry-list.tsx";
import "../lib/encyclopedia-catalog.ts";

export const meta: Route.MetaFunction = ({ location }) => pageMeta(location, "encyclopedia:site.title");

/**
 * /wiki: the site's encyclopedia home — entry search across every circle the viewer may read,
 * featured entries (views and citations), recently edited entries, and the entries by circle.
 * Complete without JavaScript (the search is a GET form).
 */
export async function loader({ context, request }: Route.LoaderArgs) {
  const app = getAppContext(context);
  const query = (pageUrl(request.url).searchParams.get("q") ?? "").trim().slice(0, 100);
  const [home, results] = await Promise.all([
    siteWikiHome(app.db, app.viewer, app.locale),
    query ? searchEntries(app.db, app.viewer, { q: query }) : Promise.resolve(null),
  ]);
  const missing = (results ?? []).map((entry) => entry.circleId).filter((id) => !(id in home.circleNames));
  const circleNames = { ...home.circleNames, ...(await circleNamesById(app.db, [...new Set(missing)], app.locale)) };
  // Lists span every readable circle and follow each edit: never kept in the anonymous page cache.
  return data({ ...home, circleNames, query, results }, { headers: { "Cache-Control": "private, no-store" } });
}

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  const cacheControl = loaderHeaders.get("Cache-Control");
  return cacheControl ? { "Cache-Control": cacheControl } : {};
}

export default function Wiki({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("encyclopedia");
  const locale = i18n.language as Locale;
  const { query, results, circleNames } = loaderData;
  const empty = loaderData.byCircle.length === 0;
  return (
    <section className="wiki-home" aria-labelledby="wiki-title" data-testid="site-wiki">
      <header className="panel">
        <h1 id="wiki-title" className="page-title">
          {t("site.title")}
        </h1>
        <p className="muted">{t("site.lead")}</p>
        <Form method="get" action={localizePath("/wiki", locale)} role="search" className="search-form">
          <input
            className="text-input"
            type="search"
            name="q"
            defaultValue={query}
            aria-label={t("home.search")}
            placeholder={t("site.search_placeholder")}
            maxLength={100}
            data-testid="site-wiki-search"
          />
          <button type="submit" className="button">
            {t("home.search")}
          </button>
        </Form>
      </header>
      {results ? (
        <section className="panel" aria-labelledby="site-wiki-results-title" data-testid="site-wiki-results">
          <h2 id="site-wiki-results-title">{t("site.results", { query })}</h2>
          {results.length > 0 ? (
            <EntryList entries={results} circleNames={circleNames} />
          ) : (
            <EmptyState description={t("site.no_results", { query })} />
          )}
        </section>
      ) : null}
      {empty ? <EmptyState description={t("site.empty")} /> : null}
      <div className="wiki-home-lists">
        <section className="panel" aria-labelledby="site-wiki-featured-title" data-testid="site-wiki-featured">
          <h2 id="site-wiki-featured-title">{t("site.featured")}</h2>
          {loaderData.featured.length > 0 ? (
            <EntryList
              entries={loaderData.featured}
              ordered
              circleNames={circleNames}
              detail={(entry) => (
                <>
                  <span className="muted">{t("read.views", { count: entry.views })}</span>
                  {entry.cites > 0 ? <span className="muted"> · {t("read.cites", { count: entry.cites })}</span> : null}
                </>
              )}
            />
          ) : (
            <p className="muted">{t("site.featured_empty")}</p>
          )}
        </section>
        <section className="panel" aria-labelledby="site-wiki-recent-title" data-testid="site-wiki-recent">
          <h2 id="site-wiki-recent-title">{t("site.recent")}</h2>
          {loaderData.recent.length > 0 ? (
            <EntryList
              entries={loaderData.recent}
              circleNames={circleNames}
              detail={(entry) => (
                <time className="muted" dateTime={entry.updatedAt}>
                  {formatDate(entry.updatedAt, locale, { dateStyle: "medium" })}
                </time>
              )}
            />
          ) : (
            <p className="muted">{t("home.empty")}</p>
          )}
        </section>
      </div>
      {empty ? null : (
        <section aria-labelledby="site-wiki-circles-title" data-testid="site-wiki-circles">
          <h2 id="site-wiki-circles-title">{t("site.by_circle")}</h2>
          <div className="wiki-home-lists">
            {loaderData.byCircle.map(({ circle, count, entries }) => (
              <section key={circle.id} className="panel" aria-label={circle.name} data-testid="site-wiki-circle">
                <h3>
                  <Link to={localizePath(`/circles/${circle.id}/encyclopedia`, locale)}>{circle.name}</Link>
                </h3>
                <EntryList entries={entries} />
                <p>
                  <Link to={localizePath(`/circles/${circle.id}?tab=encyclopedia`, locale)}>{t("site.circle_all", { count })}</Link>
                </p>
              </section>
            ))}
          </div>
        </section>
      )}
    </section>
  );
}
