import { addCatalog } from "../../common/i18n.ts";
import zhMissions from "../../common/locales/zh-CN/missions.json" with { type: "json" };
import enMissions from "../../common/locales/en/missions.json" with { type: "json" };

/** Texts of the mission pages (`/account/missions`, `/monetization/missions`). */
addCatalog("missions", { "zh-CN": zhMissions, en: enMissions });
