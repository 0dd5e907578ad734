import { addCatalog } from "../../common/i18n.ts";
import zhEncyclopedia from "../../common/locales/zh-CN/encyclopedia.json" with { type: "json" };
import enEncyclopedia from "../../common/locales/en/encyclopedia.json" with { type: "json" };

/** The entry page's and the circle's encyclopedia tab's texts (`encyclopedia:` keys). */
addCatalog("encyclopedia", { "zh-CN": zhEncyclopedia, en: enEncyclopedia });
