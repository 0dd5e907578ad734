import { registerCatalogs } from "./i18n.ts";
import common from "./locales/en/common.json" with { type: "json" };
import writings from "./locales/en/writings.json" with { type: "json" };
import content from "./locales/en/content.json" with { type: "json" };

/**
 * The texts every en page shows (header, footer, error screen) and the
 * writing lists and reading pages (with their contents and reading time) nearly all of them show, registered on import: the en
 * layout route brings them, and only them, to the browser. Forms add theirs (`app/lib/form-catalogs.ts`).
 */
export const catalogs = { common, writings, content };
registerCatalogs("en", catalogs);
