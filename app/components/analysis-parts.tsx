import { useEffect, useRef, useState } from "react";
import { Form, Link } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import { localizePath, type Locale } from "../../common/locale.ts";
import "../lib/metrics-catalog.ts";
import type { ChartSpec } from "../lib/analysis-chart-options.ts";

/** The analysis pages' shared parts: the range picker, a metric's definition, the provisional note. */

export interface RangeProps {
  path: string;
  from: string;
  to: string;
  /** Other query parameters the links keep (the chosen metric, the drilled piece). */
  keep?: Record<string, string>;
}

export function RangePicker({ path, from, to, keep = {} }: RangeProps) {
  const { t, i18n } = useTranslation("metrics");
  const locale = i18n.language as Locale;
  const base = localizePath(path, locale);
  const link = (days: number) => `${base}?${new URLSearchParams({ ...keep, days: String(days) })}`;
  return (
    <div className="analysis-range" data-testid="analysis-range">
      {[7, 30, 90].map((days) => (
        <Link key={days} className="button" to={link(days)}>
          {t(`analysis.days_${days}`)}
        </Link>
      ))}
      <Form method="get" action={base} className="analysis-range-form">
        {Object.entries(keep).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <label>
          {t("analysis.from")} <input type="date" name="from" defaultValue={from} required />
        </label>
        <label>
          {t("analysis.to")} <input type="date" name="to" defaultValue={to} required />
        </label>
        <button type="submit" className="button">
          {t("analysis.apply")}
        </button>
      </Form>
    </div>
  );
}

/** A metric's name with its definition from the metric dictionary, one click away (no script needed). */
export function MetricName({ metric }: { metric: string }) {
  const { t } = useTranslation("metrics");
  return (
    <details className="metric-definition" data-metric={metric}>
      <summary>{t(`names.${metric}`)}</summary>
      <p>{t(`definitions.${metric}`)}</p>
    </details>
  );
}

export function ProvisionalNote({ today, to }: { today: string; to: string }) {
  const { t } = useTranslation("metrics");
  return to >= today ? (
    <p className="muted analysis-provisional" data-testid="analysis-provisional">
      {t("analysis.provisional")}
    </p>
  ) : null;
}

/**
 * The chart made on the server (an SVG string from the page's loader), shown as it is without
 * JavaScript. Given its data (`spec`), it is drawn again, interactive (tooltips, legend toggles,
 * resizing), once the chart code has loaded lazily; the server's picture stays until then.
 */
export function ServerChart({ svg, label, spec }: { svg: string; label: string; spec?: ChartSpec }) {
  const { i18n } = useTranslation("metrics");
  const locale = i18n.language as Locale;
  const target = useRef<HTMLDivElement>(null);
  const [interactive, setInteractive] = useState(false);
  const key = spec ? JSON.stringify(spec) : "";
  useEffect(() => {
    if (!spec || !target.current) return;
    const element = target.current;
    let cleanUp: (() => void) | undefined;
    let cancelled = false;
    void import("../lib/analysis-charts.client.ts").then(({ mountChart }) => {
      if (cancelled) return;
      // Shown before it is drawn: ECharts sizes the chart by its element, which is empty while hidden.
      element.hidden = false;
      if (element.previousElementSibling instanceof HTMLElement) element.previousElementSibling.hidden = true;
      cleanUp = mountChart(element, spec, locale);
      setInteractive(true);
    });
    return () => {
      cancelled = true;
      cleanUp?.();
      setInteractive(false);
    };
    // The chart is drawn again when its data or the language change.
  }, [key, locale]);
  return (
    <figure className="analysis-chart" role="img" aria-label={label} data-interactive={interactive ? "true" : undefined}>
      <div hidden={interactive} dangerouslySetInnerHTML={{ __html: svg }} />
      {spec ? <div ref={target} className="analysis-chart-live" hidden={!interactive} /> : null}
    </figure>
  );
}
