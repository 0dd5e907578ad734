import { addCatalog } from "../../common/i18n.ts";
import zhTrade from "../../common/locales/zh-CN/trade.json" with { type: "json" };
import enTrade from "../../common/locales/en/trade.json" with { type: "json" };

/** Texts of the task market, loaded only by its pages. */
addCatalog("trade", { "zh-CN": zhTrade, en: enTrade });
