import { registerCatalogs } from "./i18n.ts";
import common from "./locales/zh-CN/common.json" with { type: "json" };
import writings from "./locales/zh-CN/writings.json" with { type: "json" };
import content from "./locales/zh-CN/content.json" with { type: "json" };
import comments from "./locales/zh-CN/comments.json" with { type: "json" };
import interactions from "./locales/zh-CN/interactions.json" with { type: "json" };

/**
 * The zh-CN texts nearly every page shows: header, footer and error screen (`common`), writing lists
 * and reading pages (`writings`, `content`, `comments`, `interactions`). Registered on import; the zh layout route brings them,
 * and only them, to the browser. Forms add theirs (`i18n-forms.ts`).
 */
export const catalogs = { common, writings, content, comments, interactions };
registerCatalogs("zh-CN", catalogs);
