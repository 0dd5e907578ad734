import type { Element, Nodes, Root } from "hast";
import { fromHtml } from "hast-util-from-html";
import { EXIT, SKIP, visit } from "unist-util-visit";
import type { VFile } from "vfile";
import { makeExcerpt } from "./text-stats.ts";
import type { Locale } from "../../common/locale.ts";

/**
 * The excerpt of a document, read from its rendered HTML (after KaTeX), so lists and cards never
 * show TeX source: a formula that reads as a line of text is the text of its MathML (`\sin(\pi)`
 * reads "sin(π)"), without the TeX annotation and without KaTeX's visual copy; one with structure
 * (a power, an index, a fraction, a root, limits) would read wrongly flattened ("a2+b2=c2" for
 * a²+b²=c²), so it is the marker `[公式]`/`[formula]` instead. Code blocks and footnotes are left
 * out; only paragraphs count (headings, lists and tables are not prose to quote).
 */

/** Invisible operators MathML puts between a function and its argument, and zero-width spaces. */
const invisible = /[\u200b\u2061-\u2064]/g;

function classesOf(node: Element): string[] {
  const classes = node.properties.className;
  return Array.isArray(classes) ? classes.map(String) : [];
}

/** Parts of a rendered paragraph that are not its text: KaTeX's visual copy, the TeX annotation, footnote marks. */
function isNotProse(node: Element): boolean {
  const classes = classesOf(node);
  return (
    node.tagName === "annotation" ||
    node.tagName === "pre" ||
    classes.includes("katex-html") ||
    classes.includes("sr-only") ||
    node.properties.dataFootnoteBackref !== undefined ||
    node.properties.dataFootnoteRef !== undefined
  );
}

/** MathML elements whose meaning lies in their layout: flattened to a line of text they mislead. */
const structuralMathML = new Set([
  "msup",
  "msub",
  "msubsup",
  "mfrac",
  "msqrt",
  "mroot",
  "munder",
  "mover",
  "munderover",
  "mmultiscripts",
  "mtable",
]);

/** The marker an excerpt shows for a formula it cannot write as text, in the content's language. */
export const formulaMarkers: Record<Locale, string> = { "zh-CN": "[公式]", en: "[formula]" };

function hasStructure(formula: Element): boolean {
  let found = false;
  visit(formula, "element", (node) => {
    if (node.tagName === "annotation") return SKIP;
    if (structuralMathML.has(node.tagName)) found = true;
    return found ? EXIT : undefined;
  });
  return found;
}

function paragraphText(node: Nodes, marker: string): string {
  const parts: string[] = [];
  visit(node, (child) => {
    if (child.type === "text") parts.push(child.value);
    if (child.type !== "element") return undefined;
    if (isNotProse(child)) return SKIP;
    if (classesOf(child).includes("katex") && hasStructure(child)) {
      parts.push(marker);
      return SKIP;
    }
    if (child.tagName === "br") parts.push(" ");
    return undefined;
  });
  return parts.join("").replace(invisible, "");
}

/** The paragraphs' text of a rendered tree (the footnotes section left out), joined by spaces. */
export function excerptTextOf(tree: Root, locale: Locale): string {
  const paragraphs: string[] = [];
  visit(tree, "element", (node) => {
    if (node.tagName === "section" && (node.properties.dataFootnotes !== undefined || classesOf(node).includes("footnotes"))) return SKIP;
    if (node.tagName === "pre") return SKIP;
    if (node.tagName === "p") {
      paragraphs.push(paragraphText(node, formulaMarkers[locale]));
      return SKIP;
    }
    return undefined;
  });
  return paragraphs.join(" ");
}

/** The pipeline step (after KaTeX): the excerpt's text into `file.data.excerptText`. */
export function collectExcerpt(locale: Locale) {
  return (tree: Root, file: VFile) => {
    file.data.excerptText = excerptTextOf(tree, locale);
  };
}

/** The excerpt of stored HTML (the backfill of rows rendered before excerpts were read after KaTeX). */
export function excerptOfHtml(html: string, length: number, locale: Locale): string {
  return makeExcerpt(excerptTextOf(fromHtml(html, { fragment: true }), locale), length);
}
