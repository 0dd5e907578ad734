import { data, Form, Link } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import { EmptyState } from "../components/empty-state.tsx";
import type { Route } from "./+types/search";
import { getAppContext } from "../lib/context.server.ts";
import { formatDate, localizePath, pageUrl, type Locale } from "../../common/locale.ts";
import { pageMeta } from "../lib/meta.ts";
import "../lib/search-catalog.ts";
import { searchPageFor, type SearchPageData } from "../lib/search-pages.server.ts";
import searchStyles from "../styles/search.css?url";

export const links = () => [{ rel: "stylesheet", href: searchStyles }];

export const meta: Route.MetaFunction = ({ location }) => pageMeta(location, "search:title");

/** Search results of every kind the viewer may read: tabs per type, circle, language and order filters, pages by cursor. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const app = getAppContext(context);
  const body = await searchPageFor(app, pageUrl(request.url).searchParams);
  // Results follow every write at once: never kept in the anonymous page cache.
  return data(body, { headers: { "Cache-Control": "private, no-store" } });
}

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  const cacheControl = loaderHeaders.get("Cache-Control");
  return cacheControl ? { "Cache-Control": cacheControl } : {};
}

function queryString(params: SearchPageData["params"], change: Record<string, string | null>): string {
  const merged: Record<string, string | null> = {
    q: params.q,
    type: params.type === "all" ? null : params.type,
    circle_id: params.circleId ? String(params.circleId) : null,
    language: params.language,
    sort: params.sort === "relevance" ? null : params.sort,
    ...change,
  };
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(merged)) if (value) search.set(key, value);
  return `?${search.toString()}`;
}

export default function Search({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("common");
  const locale = i18n.language as Locale;
  const { params, page, failed, circles, tabs } = loaderData;
  const action = localizePath("/search", locale);
  return (
    <section className="panel search-page" aria-labelledby="search-title">
      <h1 id="search-title" className="page-title">
        {params.q ? t("search:results_for", { query: params.q }) : t("search:title")}
      </h1>
      <Form method="get" action={action} role="search" className="search-form">
        <input
          className="text-input"
          type="search"
          name="q"
          defaultValue={params.q}
          aria-label={t("nav.search")}
          placeholder={t("nav.search_placeholder")}
          maxLength={200}
        />
        {params.type !== "all" ? <input type="hidden" name="type" value={params.type} /> : null}
        <button type="submit" className="button button-primary">
          {t("nav.search")}
        </button>
      </Form>
      {params.q ? (
        <>
          <nav className="tabs-nav" aria-label={t("search:types_label")}>
            {tabs.map((type) => (
              <Link
                key={type}
                to={`${action}${queryString(params, { type: type === "all" ? null : type, cursor: null })}`}
                aria-current={params.type === type ? "page" : undefined}
                data-type={type}
              >
                {t(type === "all" ? "search:types.all" : `kinds:search.${type}`)}
              </Link>
            ))}
          </nav>
          <Form method="get" action={action} className="search-filters" aria-label={t("search:filters")}>
            <input type="hidden" name="q" value={params.q} />
            {params.type !== "all" ? <input type="hidden" name="type" value={params.type} /> : null}
            <label>
              <span>{t("search:circle_filter")}</span>
              <select name="circle_id" defaultValue={params.circleId ? String(params.circleId) : ""} className="text-input">
                <option value="">{t("search:any_circle")}</option>
                {circles.map((circle) => (
                  <option key={circle.id} value={circle.id}>
                    {circle.name}
                  </option>
                ))}
              </select>
            </label>
            <label>
              <span>{t("search:language_filter")}</span>
              <select name="language" defaultValue={params.language ?? ""} className="text-input">
                <option value="">{t("search:any_language")}</option>
                <option value="zh-CN">{t("search:language_zh")}</option>
                <option value="en">{t("search:language_en")}</option>
              </select>
            </label>
            <label>
              <span>{t("search:sort")}</span>
              <select name="sort" defaultValue={params.sort} className="text-input">
                <option value="relevance">{t("search:sort_relevance")}</option>
                <option value="newest">{t("search:sort_newest")}</option>
              </select>
            </label>
            <button type="submit" className="button">
              {t("search:apply")}
            </button>
          </Form>
        </>
      ) : null}
      {!params.q ? (
        <p className="muted">{t("search:prompt")}</p>
      ) : failed ? (
        <p role="alert" className="search-failed">
          {t("search:failed")}
        </p>
      ) : page.results.length === 0 ? (
        <>
          {page.didYouMean ? (
            <p className="search-did-you-mean">
              {t("search:did_you_mean")}{" "}
              <Link to={`${action}${queryString(params, { q: page.didYouMean, cursor: null })}`}>{page.didYouMean}</Link>
            </p>
          ) : null}
          <EmptyState description={t("search:no_results", { query: params.q })} />
        </>
      ) : (
        <>
          <p className="muted search-total">{t("search:total", { count: page.totalEstimate })}</p>
          <ol className="search-results">
            {page.results.map((result) => (
              <li key={`${result.type}-${result.id}`} className="search-result">
                <span className="search-result-type">{t(`search:type_label.${result.type}`)}</span>
                <h2 className="search-result-title">
                  <Link to={localizePath(result.url, locale)}>{result.title}</Link>
                </h2>
                {/* The snippet is our own HTML: escaped text and <mark> only (features/search/query.ts). */}
                <p className="search-result-snippet" dangerouslySetInnerHTML={{ __html: result.snippet }} />
                <p className="search-result-meta muted">
                  {result.circle && result.type !== "circle" ? <span>{t("search:in_circle", { name: result.circle.name })}</span> : null}
                  {result.author ? <span>{t("search:by_author", { name: result.author.nickname })}</span> : null}
                  <time dateTime={result.publishedAt}>{formatDate(result.publishedAt, locale)}</time>
                </p>
              </li>
            ))}
          </ol>
          <nav className="search-paging" aria-label={t("search:next_page")}>
            {params.cursor ? <Link to={`${action}${queryString(params, { cursor: null })}`}>{t("search:first_page")}</Link> : null}
            {page.nextCursor ? (
              <Link to={`${action}${queryString(params, { cursor: page.nextCursor })}`} rel="next">
                {t("search:next_page")}
              </Link>
            ) : null}
          </nav>
        </>
      )}
    </section>
  );
}
