import type { Element, Root } from "hast";
import { visit } from "unist-util-visit";
import { visibleText } from "./outline.ts";

/**
 * Formulas KaTeX should not be given: nested deeper than `maxFormulaNesting` groups or longer than
 * `maxFormulaLength` characters. KaTeX recurses once per group and would overflow its stack (after
 * seconds of work) on thousands of nested braces; no real formula comes close to either bound.
 * They are shown as KaTeX shows a formula with an error: the source in the error colour.
 */
export const maxFormulaNesting = 100;
export const maxFormulaLength = 20_000;

function nestingDepth(tex: string): number {
  let depth = 0;
  let deepest = 0;
  for (let index = 0; index < tex.length; index += 1) {
    const character = tex[index];
    if (character === "\\") index += 1;
    else if (character === "{") deepest = Math.max(deepest, ++depth);
    else if (character === "}") depth = Math.max(0, depth - 1);
  }
  return deepest;
}

function isMath(node: Element): boolean {
  const classes = node.properties.className;
  return node.tagName === "code" && Array.isArray(classes) && classes.includes("language-math");
}

export function refuseOversizedFormulas(message: string) {
  return (tree: Root) => {
    visit(tree, "element", (node, index, parent) => {
      if (!parent || index === undefined) return undefined;
      const code =
        node.tagName === "pre" && node.children[0]?.type === "element" && isMath(node.children[0])
          ? node.children[0]
          : isMath(node)
            ? node
            : undefined;
      if (!code) return undefined;
      const tex = visibleText(code);
      if (tex.length <= maxFormulaLength && nestingDepth(tex) <= maxFormulaNesting) return undefined;
      parent.children[index] = {
        type: "element",
        tagName: "span",
        properties: { className: ["katex-error"], title: message, style: "color:#cc0000" },
        children: [{ type: "text", value: tex }],
      };
      return undefined;
    });
  };
}
