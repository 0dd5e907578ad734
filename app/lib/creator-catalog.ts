import { addCatalog } from "../../common/i18n.ts";
import zhCreator from "../../common/locales/zh-CN/creator.json" with { type: "json" };
import enCreator from "../../common/locales/en/creator.json" with { type: "json" };

/** Texts of the creator centre (/creator, /creator/manage/*), loaded only by its routes. */
addCatalog("creator", { "zh-CN": zhCreator, en: enCreator });
