import { catalogs as zh } from "./i18n-core-zh.ts";
import { catalogs as en } from "./i18n-core-en.ts";
import { formCatalogs } from "./i18n-forms.ts";

/**
 * Both languages' core catalogs, registered on import (by the modules imported here): the server
 * (`server/app.ts`) and the tests load this. A browser loads only its page's language of the
 * layout's catalogs and, on pages with forms, the form catalogs.
 */
export const coreCatalogs = {
  "zh-CN": { ...zh, ...formCatalogs["zh-CN"] },
  en: { ...en, ...formCatalogs.en },
} as const;
