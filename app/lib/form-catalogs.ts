import { addCatalog } from "../../common/i18n.ts";
import zhAccounts from "../../common/locales/zh-CN/accounts.json" with { type: "json" };
import zhValidation from "../../common/locales/zh-CN/validation.json" with { type: "json" };
import zhErrors from "../../common/locales/zh-CN/errors.json" with { type: "json" };
import enAccounts from "../../common/locales/en/accounts.json" with { type: "json" };
import enValidation from "../../common/locales/en/validation.json" with { type: "json" };
import enErrors from "../../common/locales/en/errors.json" with { type: "json" };

/**
 * The texts of forms in the browser (`accounts:`, `validation:` and `errors:` keys: labels,
 * checks before sending, the puzzle). Imported by the form hook and by every module showing
 * those keys, so reading pages never load them.
 */
addCatalog("accounts", { "zh-CN": zhAccounts, en: enAccounts });
addCatalog("validation", { "zh-CN": zhValidation, en: enValidation });
addCatalog("errors", { "zh-CN": zhErrors, en: enErrors });
