import { Form, Link } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import type { Route } from "./+types/circle-encyclopedia";
import { getAppContext, notFound } from "../lib/context.server.ts";
import { circleIdOf, tagCirclePage } from "../lib/circle-pages.server.ts";
import { pageMeta } from "../lib/meta.ts";
import { formatDate, localizePath, pageUrl, type Locale } from "../../common/locale.ts";
import { AppError } from "../../common/app-error.ts";
import { getCirclePage } from "../../features/circles/service.ts";
import { searchEntries } from "../../features/encyclopedia/service.ts";
import { countCircleEntries, hotEntries, recentlyEditedEntries } from "../../features/encyclopedia/home.ts";
import { Breadcrumb } from "../components/breadcrumb.tsx";
import { EmptyState } from "../components/empty-state.tsx";
import { EntryList } from "../components/entry-list.tsx";
import "../lib/encyclopedia-catalog.ts";

export const meta: Route.MetaFunction = ({ location, loaderData }) =>
  pageMeta(location, (t) =>
    loaderData ? t("encyclopedia:home.title", { circle: loaderData.circle.name }) : t("encyclopedia:read.not_found"),
  );

export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

/**
 * /circles/{id}/encyclopedia: the circle's wiki home — search by name or alias (Chinese and
 * English), the entry count, the recently edited and the hot entries (views over seven days), and
 * Create for those who may write. Complete without JavaScript (the search is a GET form).
 */
export async function loader({ context, params, request }: Route.LoaderArgs) {
  const app = getAppContext(context);
  const id = circleIdOf(request, params.circleId);
  const circlePage = await getCirclePage(app.db, app.viewer, id, app.locale);
  if (!circlePage) notFound(request);
  if (!circlePage.can.read_content) throw new AppError(app.viewer ? "not_found" : "not_authenticated");
  await tagCirclePage(app, id);
  const query = (pageUrl(request.url).searchParams.get("q") ?? "").trim().slice(0, 100);
  const [count, recent, hot, results] = await Promise.all([
    countCircleEntries(app.db, id),
    recentlyEditedEntries(app.db, id, app.locale),
    hotEntries(app.db, id, app.locale, app.now()),
    query ? searchEntries(app.db, app.viewer, { q: query, circleId: id }) : Promise.resolve(null),
  ]);
  return {
    circle: { id, name: circlePage.circle.name },
    canCreate: circlePage.can.write || !app.viewer,
    query,
    count,
    recent,
    hot,
    results,
  };
}

export default function CircleEncyclopedia({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("encyclopedia");
  const locale = i18n.language as Locale;
  const { circle, query, results } = loaderData;
  const circlePath = localizePath(`/circles/${circle.id}`, locale);
  const home = localizePath(`/circles/${circle.id}/encyclopedia`, locale);
  return (
    <section className="wiki-home" aria-labelledby="wiki-title" data-testid="wiki-home">
      <Breadcrumb label={t("read.breadcrumb")} trail={[{ to: circlePath, label: circle.name }]} current={t("read.encyclopedia")} />
      <header className="panel">
        <h1 id="wiki-title" className="page-title">
          {t("home.title", { circle: circle.name })}
        </h1>
        <p className="muted" data-testid="wiki-count">
          {t("list.count", { count: loaderData.count })}
        </p>
        <Form method="get" action={home} role="search" className="search-form">
          <input
            className="text-input"
            type="search"
            name="q"
            defaultValue={query}
            aria-label={t("home.search")}
            placeholder={t("home.search_placeholder")}
            maxLength={100}
            data-testid="wiki-search-input"
          />
          <button type="submit" className="button">
            {t("home.search")}
          </button>
          {loaderData.canCreate ? (
            <Link
              className="button button-primary"
              to={localizePath(`/circles/${circle.id}/encyclopedia/write`, locale)}
              data-testid="entry-create"
            >
              {t("read.create")}
            </Link>
          ) : null}
        </Form>
      </header>
      {results ? (
        <section className="panel" aria-labelledby="wiki-results-title" data-testid="wiki-results">
          <h2 id="wiki-results-title">{t("home.results", { query })}</h2>
          {results.length > 0 ? (
            <EntryList
              entries={results}
              detail={(entry) =>
                entry.aliases.length > 0 ? (
                  <span className="muted">
                    · {t("read.aliases")} {entry.aliases.join(", ")}
                  </span>
                ) : null
              }
            />
          ) : (
            <EmptyState description={t("home.no_results", { query })} />
          )}
        </section>
      ) : null}
      <div className="wiki-home-lists">
        <section className="panel" aria-labelledby="wiki-recent-title" data-testid="wiki-recent">
          <h2 id="wiki-recent-title">{t("home.recent")}</h2>
          {loaderData.recent.length > 0 ? (
            <EntryList
              entries={loaderData.recent}
              detail={(entry) => (
                <time className="muted" dateTime={entry.updatedAt}>
                  {formatDate(entry.updatedAt, locale, { dateStyle: "medium" })}
                </time>
              )}
            />
          ) : (
            <EmptyState description={t("home.empty")} />
          )}
        </section>
        <section className="panel" aria-labelledby="wiki-hot-title" data-testid="wiki-hot">
          <h2 id="wiki-hot-title">{t("home.hot")}</h2>
          {loaderData.hot.length > 0 ? (
            <EntryList
              entries={loaderData.hot}
              ordered
              detail={(entry) => <span className="muted">{t("read.views", { count: entry.views })}</span>}
            />
          ) : (
            <p className="muted">{t("home.hot_empty")}</p>
          )}
        </section>
      </div>
      <p>
        <Link to={`${circlePath}?tab=encyclopedia`}>{t("home.all")}</Link>
      </p>
    </section>
  );
}
