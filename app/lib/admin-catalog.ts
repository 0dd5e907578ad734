import { addCatalog } from "../../common/i18n.ts";
import zhAdmin from "../../common/locales/zh-CN/admin.json" with { type: "json" };
import enAdmin from "../../common/locales/en/admin.json" with { type: "json" };

/** The admin area's texts (`admin:` keys). */
addCatalog("admin", { "zh-CN": zhAdmin, en: enAdmin });
