import type { Locale } from "../../common/locale.ts";

/**
 * An analysis chart as data: what the server renders as SVG (analysis-charts.server.ts) and what
 * the browser draws again, interactive, once ECharts has loaded (analysis-charts.client.ts). One
 * option builder for both, so the two pictures are the same chart.
 */
export interface ChartSpec {
  kind: "lines" | "stacked-bars";
  /** Asia/Shanghai days, `YYYY-MM-DD`. */
  days: string[];
  series: { name: string; values: number[] }[];
}

export const chartHeight = 300;

/** `2026-12-07` as the axis shows it: `12/7` or `12月7日`. */
function dayLabel(day: string, locale: Locale): string {
  const [, month, date] = day.split("-").map(Number);
  return locale === "en" ? `${month}/${date}` : `${month}月${date}日`;
}

/** The ECharts option of a chart, with the locale's day labels and number format. */
export function chartOption(spec: ChartSpec, locale: Locale): Record<string, unknown> {
  const number = new Intl.NumberFormat(locale);
  return {
    animation: false,
    grid: { left: 56, right: 16, top: 36, bottom: 32 },
    tooltip: { trigger: "axis", className: "analysis-tooltip", valueFormatter: (value: number) => number.format(value) },
    legend: { data: spec.series.map((one) => one.name) },
    xAxis: { type: "category", data: spec.days.map((day) => dayLabel(day, locale)) },
    yAxis: { type: "value", minInterval: 1, axisLabel: { formatter: (value: number) => number.format(value) } },
    series: spec.series.map((one) =>
      spec.kind === "lines"
        ? { type: "line", name: one.name, data: one.values, showSymbol: spec.days.length <= 31 }
        : { type: "bar", name: one.name, stack: "income", data: one.values },
    ),
  };
}
