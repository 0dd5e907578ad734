import { addCatalog } from "../../common/i18n.ts";
import zhWritings from "../../common/locales/zh-CN/writings.json" with { type: "json" };
import enWritings from "../../common/locales/en/writings.json" with { type: "json" };

/** The writing pages' own texts (`writings:` keys): reading pages, editor, lists, drafts. */
addCatalog("writings", { "zh-CN": zhWritings, en: enWritings });
