import * as echarts from "echarts/core";
import { BarChart, LineChart } from "echarts/charts";
import { GridComponent, LegendComponent, TooltipComponent } from "echarts/components";
import { SVGRenderer } from "echarts/renderers";
import type { Locale } from "../../common/locale.ts";
import { chartHeight, chartOption, type ChartSpec } from "./analysis-chart-options.ts";

/*
 * The browser's side of the analysis charts, loaded by a dynamic import only on the pages that
 * show one (never in a reading page's bundle): the same chart as the server's SVG, drawn again with
 * tooltips, legend toggles and resizing.
 */
echarts.use([LineChart, BarChart, GridComponent, LegendComponent, TooltipComponent, SVGRenderer]);

/** Draws the chart into `element`, following its width; answers the clean-up. */
export function mountChart(element: HTMLElement, spec: ChartSpec, locale: Locale): () => void {
  const chart = echarts.init(element, null, { renderer: "svg", height: chartHeight });
  chart.setOption(chartOption(spec, locale));
  const resize = () => chart.resize();
  window.addEventListener("resize", resize);
  return () => {
    window.removeEventListener("resize", resize);
    chart.dispose();
  };
}
