import { registerCatalogs } from "./i18n.ts";
import zhAccounts from "./locales/zh-CN/accounts.json" with { type: "json" };
import zhValidation from "./locales/zh-CN/validation.json" with { type: "json" };
import zhErrors from "./locales/zh-CN/errors.json" with { type: "json" };
import enAccounts from "./locales/en/accounts.json" with { type: "json" };
import enValidation from "./locales/en/validation.json" with { type: "json" };
import enErrors from "./locales/en/errors.json" with { type: "json" };

/**
 * The texts of forms (`accounts:`, `validation:` and `errors:` keys: labels, checks before
 * sending, the puzzle, error messages), both languages, registered on import. The server loads
 * them with the core catalogs (`i18n-core.ts`); in the browser the form hook and every module
 * showing those keys import this, so reading pages never load them.
 */
export const formCatalogs = {
  "zh-CN": { accounts: zhAccounts, validation: zhValidation, errors: zhErrors },
  en: { accounts: enAccounts, validation: enValidation, errors: enErrors },
} as const;
registerCatalogs("zh-CN", formCatalogs["zh-CN"]);
registerCatalogs("en", formCatalogs.en);
