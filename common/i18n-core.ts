import { registerCatalogs } from "./i18n.ts";
import { catalogs as zh } from "./i18n-core-zh.ts";
import { catalogs as en } from "./i18n-core-en.ts";
import zhAccounts from "./locales/zh-CN/accounts.json" with { type: "json" };
import zhValidation from "./locales/zh-CN/validation.json" with { type: "json" };
import zhErrors from "./locales/zh-CN/errors.json" with { type: "json" };
import enAccounts from "./locales/en/accounts.json" with { type: "json" };
import enValidation from "./locales/en/validation.json" with { type: "json" };
import enErrors from "./locales/en/errors.json" with { type: "json" };

/**
 * Both languages' core catalogs, registered on import: the server (`server/app.ts`) and the tests
 * load this. A browser loads only its page's language of `common` (the layout route) and, on
 * pages with forms, the form catalogs (`app/lib/form-catalogs.ts`).
 */
export const coreCatalogs = {
  "zh-CN": { ...zh, accounts: zhAccounts, validation: zhValidation, errors: zhErrors },
  en: { ...en, accounts: enAccounts, validation: enValidation, errors: enErrors },
} as const;
registerCatalogs("zh-CN", coreCatalogs["zh-CN"]);
registerCatalogs("en", coreCatalogs.en);
