import { addCatalog } from "../../common/i18n.ts";
import "./kinds-catalog.ts";
import zhSearch from "../../common/locales/zh-CN/search.json" with { type: "json" };
import enSearch from "../../common/locales/en/search.json" with { type: "json" };

/** Texts of the search page, loaded only by its route. */
addCatalog("search", { "zh-CN": zhSearch, en: enSearch });
