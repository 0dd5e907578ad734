import * as echarts from "echarts/core";
import { BarChart, LineChart } from "echarts/charts";
import { GridComponent, LegendComponent, TooltipComponent } from "echarts/components";
import { SVGRenderer } from "echarts/renderers";
import type { Locale } from "../../common/locale.ts";
import { chartHeight, chartOption, type ChartSpec } from "./analysis-chart-options.ts";

/*
 * The analysis pages' charts, rendered on the server as SVG (ECharts server-side rendering) so
 * the pages show them without JavaScript. Only the chart types used are registered. The creator's
 * analysis pages also hand the browser the chart's data (`serverChart`), which draws it again,
 * interactive, once the chart code has loaded lazily (app/lib/analysis-charts.client.ts).
 */
echarts.use([LineChart, BarChart, GridComponent, LegendComponent, TooltipComponent, SVGRenderer]);

const width = 720;

export function chartSvg(spec: ChartSpec, locale: Locale): string {
  const chart = echarts.init(null, null, { renderer: "svg", ssr: true, width, height: chartHeight });
  chart.setOption(chartOption(spec, locale));
  const svg = chart.renderToSVGString();
  chart.dispose();
  return svg;
}

/** A chart for a page that makes it interactive: its SVG and its data. */
export function serverChart(spec: ChartSpec, locale: Locale): { svg: string; spec: ChartSpec } {
  return { svg: chartSvg(spec, locale), spec };
}

/** One metric per day as a line. */
export function lineChartSvg(days: string[], name: string, values: number[], locale: Locale): string {
  return chartSvg({ kind: "lines", days, series: [{ name, values }] }, locale);
}

/** Income per day, one stacked bar per source. */
export function stackedBarsSvg(days: string[], series: { name: string; values: number[] }[], locale: Locale): string {
  return chartSvg({ kind: "stacked-bars", days, series }, locale);
}

/** Several metrics per day, one line each (an ad campaign's served, viewable and clicks). */
export function linesChartSvg(days: string[], series: { name: string; values: number[] }[], locale: Locale): string {
  return chartSvg({ kind: "lines", days, series }, locale);
}
