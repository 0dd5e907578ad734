import * as echarts from "echarts/core";
import { BarChart, LineChart } from "echarts/charts";
import { GridComponent, LegendComponent, TooltipComponent } from "echarts/components";
import { SVGRenderer } from "echarts/renderers";
import type { Locale } from "../../common/locale.ts";

/*
 * The analysis pages' charts, rendered on the server as SVG (ECharts server-side rendering) so
 * the pages show them without JavaScript. Only the chart types used are registered; this module
 * is server-only, so ECharts never enters a browser bundle.
 */
echarts.use([LineChart, BarChart, GridComponent, LegendComponent, TooltipComponent, SVGRenderer]);

const width = 720;
const height = 300;

/** `2026-12-07` as the axis shows it: `12/7` or `12月7日`. */
function dayLabel(day: string, locale: Locale): string {
  const [, month, date] = day.split("-").map(Number);
  return locale === "en" ? `${month}/${date}` : `${month}月${date}日`;
}

function render(option: echarts.EChartsCoreOption): string {
  const chart = echarts.init(null, null, { renderer: "svg", ssr: true, width, height });
  chart.setOption({ animation: false, ...option });
  const svg = chart.renderToSVGString();
  chart.dispose();
  return svg;
}

function axes(days: string[], locale: Locale) {
  const number = new Intl.NumberFormat(locale);
  return {
    grid: { left: 56, right: 16, top: 36, bottom: 32 },
    xAxis: { type: "category", data: days.map((day) => dayLabel(day, locale)) },
    yAxis: { type: "value", minInterval: 1, axisLabel: { formatter: (value: number) => number.format(value) } },
  };
}

/** One metric per day as a line. */
export function lineChartSvg(days: string[], name: string, values: number[], locale: Locale): string {
  return render({
    ...axes(days, locale),
    legend: { data: [name] },
    series: [{ type: "line", name, data: values, showSymbol: days.length <= 31 }],
  });
}

/** Income per day, one stacked bar per source. */
export function stackedBarsSvg(days: string[], series: { name: string; values: number[] }[], locale: Locale): string {
  return render({
    ...axes(days, locale),
    legend: { data: series.map((one) => one.name) },
    series: series.map((one) => ({ type: "bar", name: one.name, stack: "income", data: one.values })),
  });
}

/** Several metrics per day, one line each (an ad campaign's served, viewable and clicks). */
export function linesChartSvg(days: string[], series: { name: string; values: number[] }[], locale: Locale): string {
  return render({
    ...axes(days, locale),
    legend: { data: series.map((one) => one.name) },
    series: series.map((one) => ({ type: "line", name: one.name, data: one.values, showSymbol: days.length <= 31 })),
  });
}
