import { addCatalog } from "../../common/i18n.ts";
import zhKinds from "../../common/locales/zh-CN/kinds.json" with { type: "json" };
import enKinds from "../../common/locales/en/kinds.json" with { type: "json" };

/**
 * The labels a kind of content declares for the places that list every kind (`kinds:` keys): its
 * circle counts (`counts.<name>`), its circle tabs (`tabs.<name>`) and its search tab
 * (`search.<type>`). One file per language, so a new kind adds its labels in two files.
 */
addCatalog("kinds", { "zh-CN": zhKinds, en: enKinds });
