import { addCatalog } from "../../common/i18n.ts";
import zhSitePages from "../../common/locales/zh-CN/site-pages.json" with { type: "json" };
import enSitePages from "../../common/locales/en/site-pages.json" with { type: "json" };

/** The texts of contact, feedback, friend links and the school zone (`sitepages:` keys). */
addCatalog("sitepages", { "zh-CN": zhSitePages, en: enSitePages });
