import type { Locale } from "../../common/locale.ts";
import { highlight } from "./query.ts";

/**
 * Snippets never show formula or code source. The index keeps a body's plain text with its
 * formulas as written (`$…$`, `$$…$$`, `\(…\)`, `\[…\]`, so their symbols stay searchable) and its
 * fenced code blocks between `codeStart` and `codeEnd` (plainText in registry.ts). A snippet leaves
 * the code out and shows each formula as a marker ("[公式]", "[formula]").
 */
export const codeStart = "\uE000";
export const codeEnd = "\uE001";
/** One character standing for a formula while the snippet is cut and marked. */
const formulaMark = "\uE002";

const codeBlocks = new RegExp(`${codeStart}[^${codeEnd}]*(?:${codeEnd}|$)`, "g");
/**
 * Display formulas and bracketed ones first; then inline `$…$` whose source neither starts nor
 * ends with a space (so "$5 and $10" stays text), as the Markdown formula syntax reads them.
 */
const formulas = /\$\$[\s\S]+?\$\$|\\\[[\s\S]+?\\\]|\\\([\s\S]+?\\\)|\$(?=\S)[^$]*?\S\$(?!\d)|\$[^\s$]\$(?!\d)/g;
const markers: Record<Locale, string> = { "zh-CN": "[公式]", en: "[formula]" };

/** The body's text as a snippet reads it: no code, each formula one marker character. */
export function snippetText(body: string): string {
  return body.replace(codeBlocks, " ").replace(formulas, formulaMark).replace(/\s+/g, " ").trim();
}

/** The highlighted snippet of a body (HTML): formulas as the locale's marker, code left out. */
export function snippet(body: string, marks: string[], locale: Locale): string {
  return highlight(snippetText(body), marks).replaceAll(formulaMark, markers[locale]);
}
