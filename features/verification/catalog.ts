import { addCatalog } from "../../common/i18n.ts";
import zhCodes from "../../common/locales/zh-CN/codes.json" with { type: "json" };
import enCodes from "../../common/locales/en/codes.json" with { type: "json" };

/** The `codes` namespace: messages sent with codes, SMS sign-in, forgotten passwords, the dev outbox. */
addCatalog("codes", { "zh-CN": zhCodes, en: enCodes });
