import { addCatalog } from "../../common/i18n.ts";
import zhEditor from "../../common/locales/zh-CN/editor.json" with { type: "json" };
import enEditor from "../../common/locales/en/editor.json" with { type: "json" };

/** The editor's and the drafts page's texts (`editor:` keys), apart from `writings:` so reading pages do not ship them. */
addCatalog("editor", { "zh-CN": zhEditor, en: enEditor });
