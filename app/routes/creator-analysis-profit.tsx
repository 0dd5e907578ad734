import { Link } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import type { Route } from "./+types/creator-analysis-profit";
import { getAppContext, requireViewer } from "../lib/context.server.ts";
import { localizePath, pageUrl, type Locale } from "../../common/locale.ts";
import { pageMeta } from "../lib/meta.ts";
import { CreatorLayout } from "../components/creator-layout.tsx";
import { MetricName, ProvisionalNote, RangePicker, ServerChart } from "../components/analysis-parts.tsx";
import { profitAnalysis, profitSources } from "../../features/analysis/profit.ts";
import { serverChart } from "../lib/analysis-charts.server.ts";
import { pageRange } from "../lib/analysis-page.server.ts";
import { translator } from "../../common/i18n.ts";
import "../lib/metrics-catalog.ts";
import "../lib/creator-catalog.ts";
import creatorStyles from "../styles/creator.css?url";

export const meta: Route.MetaFunction = ({ location }) => pageMeta(location, "metrics:analysis.profit_title");
export const links = () => [{ rel: "stylesheet", href: creatorStyles }];

const columns = [...profitSources, "total"] as const;
type Column = (typeof columns)[number];

/** `/creator/analysis/profit`: income per day by source as stacked bars, totals, and income per piece (from the ledger). */
export async function loader({ context, request }: Route.LoaderArgs) {
  const app = getAppContext(context);
  const viewer = requireViewer(app);
  const params = pageUrl(request.url).searchParams;
  const range = pageRange(params, app.now());
  const analysis = await profitAnalysis(app.db, viewer, range);
  const sort: Column = columns.find((column) => column === params.get("sort")) ?? "total";
  const items = [...analysis.items].sort((a, b) => b[sort] - a[sort] || a.id - b.id);
  const t = translator(app.locale);
  const chart = serverChart(
    {
      kind: "stacked-bars",
      days: analysis.days.map((day) => day.day),
      series: profitSources.map((source) => ({
        name: t(`metrics:names.income_${source}`),
        values: analysis.days.map((day) => day[source]),
      })),
    },
    app.locale,
  );
  return { range, analysis: { ...analysis, items }, sort, chart };
}

export default function CreatorAnalysisProfit({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("metrics");
  const locale = i18n.language as Locale;
  const { range, analysis, sort, chart } = loaderData;
  const number = (value: number) => value.toLocaleString(locale);
  const path = "/creator/analysis/profit";
  const rangeQuery = { from: range.from, to: range.to };
  const here = (extra: Record<string, string>) => `${localizePath(path, locale)}?${new URLSearchParams({ ...rangeQuery, ...extra })}`;
  const csv = `/api/creator/analysis/profit.csv?${new URLSearchParams(rangeQuery)}`;
  return (
    <CreatorLayout>
      <section className="panel" aria-labelledby="analysis-title" data-testid="analysis-profit">
        <h1 id="analysis-title" className="page-title">
          {t("analysis.profit_title")}
        </h1>
        <p className="muted">{t("analysis.intro_profit")}</p>
        <RangePicker path={path} from={range.from} to={range.to} />
        <ProvisionalNote today={range.today} to={range.to} />
        <h2 className="creator-section-title">{t("analysis.totals")}</h2>
        <dl className="creator-counts" data-testid="analysis-totals">
          {columns.map((column) => (
            <div key={column} className="creator-count" data-key={column}>
              <dt>
                <MetricName metric={`income_${column}`} />
              </dt>
              <dd>{number(analysis.totals[column])}</dd>
            </div>
          ))}
        </dl>
        <h2 className="creator-section-title">{t("analysis.chart")}</h2>
        <ServerChart svg={chart.svg} spec={chart.spec} label={t("analysis.profit_title")} />
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
                {columns.map((column) => (
                  <th key={column} aria-sort={column === sort ? "descending" : undefined}>
                    <Link to={here({ sort: column })}>{t(`names.income_${column}`)}</Link>
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {analysis.items.map((item) => (
                <tr key={`${item.type}:${item.id}`} data-id={item.id}>
                  <td>{item.url ? <Link to={localizePath(item.url, locale)}>{item.title}</Link> : item.title}</td>
                  {columns.map((column) => (
                    <td key={column}>{number(item[column])}</td>
                  ))}
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
              {columns.map((column) => (
                <th key={column}>{t(`names.income_${column}`)}</th>
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
                {columns.map((column) => (
                  <td key={column}>{number(day[column])}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </CreatorLayout>
  );
}
