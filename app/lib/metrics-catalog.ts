import { addCatalog } from "../../common/i18n.ts";
import zhMetrics from "../../common/locales/zh-CN/metrics.json" with { type: "json" };
import enMetrics from "../../common/locales/en/metrics.json" with { type: "json" };

/** The metric dictionary's names (docs/features/metrics.md), loaded by the pages that show figures. */
addCatalog("metrics", { "zh-CN": zhMetrics, en: enMetrics });
