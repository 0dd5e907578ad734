import { addCatalog } from "../../common/i18n.ts";
import zhAds from "../../common/locales/zh-CN/ads.json" with { type: "json" };
import enAds from "../../common/locales/en/ads.json" with { type: "json" };

/** Texts of self-serve ads (the advertiser's pages, the slot's label, the review page), loaded only by the pages that show them. */
addCatalog("ads", { "zh-CN": zhAds, en: enAds });
