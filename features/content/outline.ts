import type { Element, Nodes, Root } from "hast";
import { SKIP, visit } from "unist-util-visit";
import type { VFile } from "vfile";
import type { TocItem } from "./schema.ts";

declare module "vfile" {
  interface DataMap {
    toc: TocItem[];
    plainText: string;
    excerptText: string;
  }
}

const blockElements = new Set([
  "p",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "li",
  "td",
  "th",
  "tr",
  "pre",
  "blockquote",
  "div",
  "section",
  "table",
  "ul",
  "ol",
  "dl",
  "dt",
  "dd",
  "br",
  "hr",
  "details",
  "summary",
]);

/** Footnote numbers, "↩" back links and the visually hidden footnotes heading are not prose. */
function isApparatus(node: Element): boolean {
  const classes = node.properties.className;
  return (
    node.properties.dataFootnoteBackref !== undefined ||
    node.properties.dataFootnoteRef !== undefined ||
    (Array.isArray(classes) && classes.includes("sr-only"))
  );
}

/**
 * The text a reader sees under `node`, with a line break between blocks so the words of adjacent
 * paragraphs stay apart. Formulas are still their TeX source at this stage, code its code.
 */
export function visibleText(node: Nodes): string {
  const parts: string[] = [];
  visit(node, (child) => {
    if (child.type === "text") parts.push(child.value);
    if (child.type !== "element") return undefined;
    if (isApparatus(child)) return SKIP;
    if (blockElements.has(child.tagName)) parts.push("\n");
    return undefined;
  });
  return parts.join("");
}

/**
 * Reads the table of contents (headings with their ids) and the visible text (for the length and
 * reading time) into `file.data`. The excerpt is read later, from the rendered formulas
 * (`collectExcerpt` in excerpt.ts).
 */
export function collectOutline() {
  return (tree: Root, file: VFile) => {
    const toc: TocItem[] = [];
    visit(tree, "element", (node) => {
      if (node.tagName === "section" && node.properties.dataFootnotes !== undefined) return SKIP;
      const depth = /^h([1-6])$/.exec(node.tagName)?.[1];
      if (depth && typeof node.properties.id === "string") {
        toc.push({ depth: Number(depth) as TocItem["depth"], text: visibleText(node).replace(/\s+/g, " ").trim(), id: node.properties.id });
        return SKIP;
      }
      return undefined;
    });
    file.data.toc = toc;
    file.data.plainText = visibleText(tree);
  };
}
