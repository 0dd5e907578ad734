import { Link } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import type { Route } from "./+types/creator-analysis-content";
import { getAppContext, requireViewer } from "../lib/context.server.ts";
import { localizePath, pageUrl, type Locale } from "../../common/locale.ts";
import { pageMeta } from "../lib/meta.ts";
import { CreatorLayout } from "../components/creator-layout.tsx";
import { MetricName, ProvisionalNote, RangePicker, ServerChart } from "../components/analysis-parts.tsx";
import { contentAnalysis, contentFigures, type ContentFigure } from "../../features/analysis/content.ts";
import { contentQuery, drilledSubject } from "../../features/analysis/operations.ts";
import { serverChart } from "../lib/analysis-charts.server.ts";
import { pageRange } from "../lib/analysis-page.server.ts";
import { translator } from "../../common/i18n.ts";
import "../lib/metrics-catalog.ts";
import "../lib/creator-catalog.ts";
import creatorStyles from "../styles/creator.css?url";

export const meta: Route.MetaFunction = ({ location }) => pageMeta(location, "metrics:analysis.content_title");
export const links = () => [{ rel: "stylesheet", href: creatorStyles }];

const itemFigures = ["views", "reads", "likes", "favorites", "comments"] as const;
type ItemFigure = (typeof itemFigures)[number];

/** `/creator/analysis/content`: the creator's figures per day as a line chart (one metric at a time), and every piece. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const app = getAppContext(context);
  const viewer = requireViewer(app);
  const params = pageUrl(request.url).searchParams;
  const range = pageRange(params, app.now());
  const query = contentQuery.parse({
    subject_type: params.get("subject_type") || undefined,
    subject_id: params.get("subject_id") || undefined,
  });
  const subject = drilledSubject(query);
  const analysis = await contentAnalysis(app.db, viewer, range, subject);
  const metric: ContentFigure = contentFigures.find((figure) => figure === params.get("metric")) ?? "views";
  const sort: ItemFigure = itemFigures.find((figure) => figure === params.get("sort")) ?? "views";
  const items = [...analysis.items].sort((a, b) => b[sort] - a[sort] || a.id - b.id);
  const name = translator(app.locale)(`metrics:names.${metric}`);
  const chart = serverChart(
    { kind: "lines", days: analysis.days.map((day) => day.day), series: [{ name, values: analysis.days.map((day) => day[metric]) }] },
    app.locale,
  );
  const piece = subject ? (analysis.items[0] ?? { ...subject, title: `${subject.type} ${subject.id}`, url: "" }) : null;
  return { range, analysis: { ...analysis, items }, metric, sort, chart, piece, subject };
}

export default function CreatorAnalysisContent({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("metrics");
  const locale = i18n.language as Locale;
  const { range, analysis, metric, sort, chart, piece, subject } = loaderData;
  const number = (value: number) => value.toLocaleString(locale);
  const path = "/creator/analysis/content";
  const keep: Record<string, string> = { metric, ...(subject ? { subject_type: subject.type, subject_id: String(subject.id) } : {}) };
  const rangeQuery = { from: range.from, to: range.to };
  const here = (extra: Record<string, string>) =>
    `${localizePath(path, locale)}?${new URLSearchParams({ ...rangeQuery, ...keep, ...extra })}`;
  const csv = `/api/creator/analysis/content.csv?${new URLSearchParams({ ...rangeQuery, ...(subject ? { subject_type: subject.type, subject_id: String(subject.id) } : {}) })}`;
  const readRatio = analysis.totals.views ? Math.round((analysis.totals.reads / analysis.totals.views) * 100) : 0;
  return (
    <CreatorLayout>
      <section className="panel" aria-labelledby="analysis-title" data-testid="analysis-content">
        <h1 id="analysis-title" className="page-title">
          {t("analysis.content_title")}
          {piece ? `: ${piece.title}` : ""}
        </h1>
        <p className="muted">{t("analysis.intro_content")}</p>
        {piece ? <Link to={localizePath(`${path}?${new URLSearchParams(rangeQuery)}`, locale)}>{t("analysis.back_all")}</Link> : null}
        <RangePicker path={path} from={range.from} to={range.to} keep={keep} />
        <ProvisionalNote today={range.today} to={range.to} />
        <h2 className="creator-section-title">{t("analysis.totals")}</h2>
        <dl className="creator-counts" data-testid="analysis-totals">
          {contentFigures.map((figure) => (
            <div key={figure} className="creator-count" data-key={figure}>
              <dt>
                <MetricName metric={figure} />
              </dt>
              <dd>{number(analysis.totals[figure])}</dd>
            </div>
          ))}
          <div className="creator-count" data-key="read_ratio">
            <dt>
              <MetricName metric="read_ratio" />
            </dt>
            <dd>{readRatio}%</dd>
          </div>
        </dl>
        <p className="muted" data-testid="analysis-filtered">
          {t("analysis.filtered", {
            count: analysis.totals.filtered_views,
            bots: analysis.filtered.bots,
            repeats: analysis.filtered.repeats,
          })}
        </p>
        <h2 className="creator-section-title">{t("analysis.chart")}</h2>
        <nav className="analysis-metrics" aria-label={t("analysis.metric")}>
          {contentFigures.map((figure) => (
            <Link key={figure} className={figure === metric ? "button button-primary" : "button"} to={here({ metric: figure })}>
              {t(`names.${figure}`)}
            </Link>
          ))}
        </nav>
        <ServerChart svg={chart.svg} spec={chart.spec} label={t(`names.${metric}`)} />
        <p>
          <a className="button" href={csv} download>
            {t("analysis.export")}
          </a>
        </p>
      </section>
      <section className="panel" aria-labelledby="analysis-items">
        <h2 id="analysis-items" className="page-title">
          {t("analysis.table")}
        </h2>
        {analysis.items.length === 0 ? (
          <p className="muted">{t("analysis.no_items")}</p>
        ) : (
          <table className="creator-table" data-testid="analysis-items">
            <thead>
              <tr>
                <th>{t("analysis.piece")}</th>
                {itemFigures.map((figure) => (
                  <th key={figure} aria-sort={figure === sort ? "descending" : undefined}>
                    <Link to={here({ sort: figure })} title={t("analysis.sort", { name: t(`names.${figure}`) })}>
                      {t(`names.${figure}`)}
                    </Link>
                  </th>
                ))}
                <th />
              </tr>
            </thead>
            <tbody>
              {analysis.items.map((item) => (
                <tr key={`${item.type}:${item.id}`} data-id={item.id}>
                  <td>
                    <Link to={localizePath(item.url, locale)}>{item.title}</Link>
                  </td>
                  {itemFigures.map((figure) => (
                    <td key={figure}>{number(item[figure])}</td>
                  ))}
                  <td>
                    <Link to={here({ subject_type: item.type, subject_id: String(item.id) })}>{t("analysis.drill")}</Link>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <h2 className="creator-section-title">{t("analysis.daily")}</h2>
        <table className="creator-table" data-testid="analysis-days">
          <thead>
            <tr>
              <th>{t("names.day")}</th>
              {contentFigures.map((figure) => (
                <th key={figure}>{t(`names.${figure}`)}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {[...analysis.days].reverse().map((day) => (
              <tr key={day.day} data-day={day.day}>
                <td>
                  {day.day}
                  {day.day === range.today ? ` (${t("analysis.provisional_mark")})` : ""}
                </td>
                {contentFigures.map((figure) => (
                  <td key={figure}>{number(day[figure])}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </CreatorLayout>
  );
}
