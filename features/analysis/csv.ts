import { stringify } from "csv-stringify/sync";
import zhMetrics from "../../common/locales/zh-CN/metrics.json" with { type: "json" };
import enMetrics from "../../common/locales/en/metrics.json" with { type: "json" };
import type { Locale } from "../../common/locale.ts";
import { contentFigures, type ContentAnalysis } from "./content.ts";
import { profitSources, type ProfitAnalysis } from "./profit.ts";

/**
 * The analysis tables as CSV for spreadsheets: UTF-8 with a byte-order mark (so Excel reads
 * Chinese), headers in the reader's language, and every cell that a spreadsheet would take for a
 * formula (beginning with `=`, `+`, `-`, `@`, or a tab or carriage return) prefixed with `'`.
 */

const formulaStart = /^[=+\-@\t\r]/;

export function escapeCell(value: string | number): string | number {
  return typeof value === "string" && formulaStart.test(value) ? `'${value}` : value;
}

/** A figure's name in the reader's language (the metric dictionary's catalogue). */
function metricName(locale: Locale): (key: string) => string {
  const names: Record<string, string> = (locale === "en" ? enMetrics : zhMetrics).names;
  return (key) => names[key] ?? key;
}

function toCsv(rows: (string | number)[][]): string {
  return `\uFEFF${stringify(rows.map((row) => row.map(escapeCell)))}`;
}

/** One row per day, then one per piece (a blank line between), the headers the metric names. */
export function contentCsv(analysis: ContentAnalysis, locale: Locale): string {
  const name = metricName(locale);
  const itemFigures = ["views", "reads", "likes", "favorites", "comments"] as const;
  return toCsv([
    [name("day"), ...contentFigures.map(name)],
    ...analysis.days.map((day) => [day.day, ...contentFigures.map((figure) => day[figure])]),
    [name("total"), ...contentFigures.map((figure) => analysis.totals[figure])],
    [],
    [name("type"), "id", name("title"), name("url"), ...itemFigures.map(name)],
    ...analysis.items.map((item) => [item.type, item.id, item.title, item.url, ...itemFigures.map((figure) => item[figure])]),
  ]);
}

export function profitCsv(analysis: ProfitAnalysis, locale: Locale): string {
  const name = metricName(locale);
  const columns = [...profitSources, "total"] as const;
  return toCsv([
    [name("day"), ...columns.map((source) => name(`income_${source}`))],
    ...analysis.days.map((day) => [day.day, ...columns.map((source) => day[source])]),
    [name("total"), ...columns.map((source) => analysis.totals[source])],
    [],
    [name("type"), "id", name("title"), name("url"), ...columns.map((source) => name(`income_${source}`))],
    ...analysis.items.map((item) => [item.type, item.id, item.title, item.url, ...columns.map((source) => item[source])]),
  ]);
}
