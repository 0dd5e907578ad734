import { addCatalog } from "../../common/i18n.ts";
import "./kinds-catalog.ts";
import zhCircles from "../../common/locales/zh-CN/circles.json" with { type: "json" };
import enCircles from "../../common/locales/en/circles.json" with { type: "json" };

/** The circle pages' own texts (`circles:` keys); imported by every circle route module. */
addCatalog("circles", { "zh-CN": zhCircles, en: enCircles });

export const circlesNamespace = "circles";
