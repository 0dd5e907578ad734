import { addCatalog } from "../../common/i18n.ts";
import zhRanking from "../../common/locales/zh-CN/ranking.json" with { type: "json" };
import enRanking from "../../common/locales/en/ranking.json" with { type: "json" };

/** Texts of the rankings page, loaded only by its route. */
addCatalog("ranking", { "zh-CN": zhRanking, en: enRanking });
