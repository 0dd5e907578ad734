import { Form, Link } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import { EmptyState } from "../components/empty-state.tsx";
import type { Route } from "./+types/ranking";
import { getAppContext, tagPage } from "../lib/context.server.ts";
import { pageServices } from "../lib/interaction-pages.server.ts";
import { localizePath, pageUrl, type Locale } from "../../common/locale.ts";
import { pageMeta } from "../lib/meta.ts";
import "../lib/ranking-catalog.ts";
import type { RankingRow } from "../../features/search/ranking.ts";
import { rankingOperation } from "../../features/search/operations.ts";
import { rankingKinds, rankingPeriods } from "../../features/search/schema.ts";
import { searchableCircles } from "../../features/search/service.ts";
import { homeTag } from "../../server/lib/cache-tags.ts";
import searchStyles from "../styles/search.css?url";

export const links = () => [{ rel: "stylesheet", href: searchStyles }];

export const meta: Route.MetaFunction = ({ location }) => pageMeta(location, "ranking:title");

/**
 * Hot writings, questions, entries and books and the top creators of the day, week or month,
 * site-wide or in one circle: the same operation as `GET /api/ranking/` (`?type=&period=&circle_id=&cursor=`;
 * `kind` is the older name of `type`).
 */
export async function loader({ context, request }: Route.LoaderArgs) {
  const app = getAppContext(context);
  const params = pageUrl(request.url).searchParams;
  const query = rankingOperation.input.query.parse({
    ...Object.fromEntries(params),
    type: params.get("type") ?? params.get("kind") ?? undefined,
  });
  tagPage(app, homeTag);
  // Rankings tolerate a short lag: the read replica when it is caught up (server/lib/read-routing.ts).
  const services = { ...pageServices(app), db: app.readDb };
  const [result, circles] = await Promise.all([
    rankingOperation.run(services, app.viewer, { query, params: undefined, body: undefined }),
    searchableCircles(app.readDb, app.viewer, app.locale),
  ]);
  return {
    period: result.period,
    kind: result.type,
    circleId: result.circleId,
    rows: result.rows,
    next: result.nextOffset === null ? null : `o${result.nextOffset}`,
    circles,
  };
}

function Change({ row }: { row: RankingRow }) {
  const { t } = useTranslation("ranking");
  if (row.change === null) return <span className="ranking-change ranking-change-new">{t("change_new")}</span>;
  if (row.change > 0) return <span className="ranking-change ranking-change-up">↑ {t("change_up", { count: row.change })}</span>;
  if (row.change < 0) return <span className="ranking-change ranking-change-down">↓ {t("change_down", { count: -row.change })}</span>;
  return <span className="ranking-change">{t("change_same")}</span>;
}

export default function Ranking({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("ranking");
  const locale = i18n.language as Locale;
  const { period, kind, circleId, rows, next, circles } = loaderData;
  const action = localizePath("/ranking", locale);
  const link = (change: Record<string, string | null>) => {
    const params = new URLSearchParams();
    const merged: Record<string, string | null> = { period, type: kind, circle_id: circleId ? String(circleId) : null, ...change };
    for (const [key, value] of Object.entries(merged)) if (value) params.set(key, value);
    return `${action}?${params.toString()}`;
  };
  return (
    <section className="panel ranking-page" aria-labelledby="ranking-title">
      <h1 id="ranking-title" className="page-title">
        {t("title")}
      </h1>
      <p className="muted">{t("intro")}</p>
      <nav className="tabs-nav" aria-label={t("kinds_label")}>
        {rankingKinds.map((name) => (
          <Link key={name} to={link({ type: name })} aria-current={kind === name ? "page" : undefined}>
            {t(`kinds.${name}`)}
          </Link>
        ))}
      </nav>
      <div className="search-filters">
        <nav className="ranking-periods" aria-label={t("period_label")}>
          {rankingPeriods.map((name) => (
            <Link key={name} to={link({ period: name })} aria-current={period === name ? "page" : undefined} className="button">
              {t(`periods.${name}`)}
            </Link>
          ))}
        </nav>
        <Form method="get" action={action} className="search-filters">
          <input type="hidden" name="period" value={period} />
          <input type="hidden" name="type" value={kind} />
          <label>
            <span>{t("circle_filter")}</span>
            <select name="circle_id" defaultValue={circleId ? String(circleId) : ""} className="text-input">
              <option value="">{t("all_circles")}</option>
              {circles.map((circle) => (
                <option key={circle.id} value={circle.id}>
                  {circle.name}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" className="button">
            {t("apply")}
          </button>
        </Form>
      </div>
      {rows.length === 0 ? (
        <EmptyState description={t("empty")} />
      ) : (
        <ol className="ranking-list">
          {rows.map((row) => (
            <li key={row.id} className="ranking-row">
              <span className="ranking-rank" aria-label={`${t("rank")} ${row.rank}`}>
                {row.rank}
              </span>
              <div className="ranking-body">
                <Link to={localizePath(row.url, locale)} className="ranking-title">
                  {row.title}
                </Link>
                {row.otherUrl ? (
                  <>
                    {" "}
                    <Link to={localizePath(row.otherUrl, locale)} className="ranking-other" data-testid="ranking-other">
                      {t("other_version")}
                    </Link>
                  </>
                ) : null}
                <p className="muted ranking-meta">
                  {kind === "creator" ? (
                    <span>{t("creator_figures", { likes: row.likes ?? 0, followers: row.followers ?? 0 })}</span>
                  ) : row.author ? (
                    <span>{t("by_author", { name: row.author.nickname })}</span>
                  ) : null}
                  <Change row={row} />
                </p>
              </div>
            </li>
          ))}
        </ol>
      )}
      {next || (rows[0]?.rank ?? 1) > 1 ? (
        <nav className="search-paging" aria-label={t("paging_label")}>
          {(rows[0]?.rank ?? 1) > 1 ? <Link to={link({})}>{t("first_page")}</Link> : null}
          {next ? (
            <Link to={link({ cursor: next })} rel="next">
              {t("next_page")}
            </Link>
          ) : null}
        </nav>
      ) : null}
    </section>
  );
}
