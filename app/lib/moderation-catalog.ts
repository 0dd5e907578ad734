import { addCatalog } from "../../common/i18n.ts";
import zhModeration from "../../common/locales/zh-CN/moderation.json" with { type: "json" };
import enModeration from "../../common/locales/en/moderation.json" with { type: "json" };

/** The report page's, the hidden notice's and the moderation queues' texts (`moderation:` keys). */
addCatalog("moderation", { "zh-CN": zhModeration, en: enModeration });

export const moderationNamespace = "moderation";
