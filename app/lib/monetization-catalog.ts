import { addCatalog } from "../../common/i18n.ts";
import zhMonetization from "../../common/locales/zh-CN/monetization.json" with { type: "json" };
import enMonetization from "../../common/locales/en/monetization.json" with { type: "json" };

/** Texts of the monetization pages: cashout, its payout sandbox, and the admins' cashout queue. */
addCatalog("monetization", { "zh-CN": zhMonetization, en: enMonetization });
