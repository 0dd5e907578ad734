import { registerCatalogs } from "./i18n.ts";
import common from "./locales/en/common.json" with { type: "json" };
import writings from "./locales/en/writings.json" with { type: "json" };
import content from "./locales/en/content.json" with { type: "json" };
import comments from "./locales/en/comments.json" with { type: "json" };
import interactions from "./locales/en/interactions.json" with { type: "json" };

/**
 * The en texts nearly every page shows: header, footer and error screen (`common`), writing lists
 * and reading pages (`writings`, `content`, `comments`, `interactions`). Registered on import; the en layout route brings them,
 * and only them, to the browser. Forms add theirs (`i18n-forms.ts`).
 */
export const catalogs = { common, writings, content, comments, interactions };
registerCatalogs("en", catalogs);
