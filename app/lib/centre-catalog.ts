import { addCatalog } from "../../common/i18n.ts";
import zhCentre from "../../common/locales/zh-CN/centre.json" with { type: "json" };
import enCentre from "../../common/locales/en/centre.json" with { type: "json" };

/** Texts of the personal centre and public profiles, loaded only by their routes. */
addCatalog("centre", { "zh-CN": zhCentre, en: enCentre });
