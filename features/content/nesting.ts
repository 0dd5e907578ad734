/**
 * Bounds on nesting. The Markdown parser and the tree utilities after it recurse once per level,
 * so thousands of nested quotes, lists, emphasis or raw `<div>`s would overflow the stack. Two
 * guards keep every document renderable:
 *
 * - before parsing, a line may open at most `maxNesting` containers (`>` and list markers); the
 *   markers past that are dropped, so `>>>>…` ten thousand times reads as `maxNesting` quotes;
 * - after parsing (Markdown tree) and after raw HTML is parsed (HTML tree), an element deeper than
 *   `maxNesting` keeps its text but loses its structure.
 *
 * Both walks are iterative, so they work on trees of any depth.
 */

export const maxNesting = 48;

/** Optional indentation, then a `>` or a list marker (`-`, `*`, `+`, `1.`, `1)`) with its spacing. */
const containerMarker = /^[ \t]{0,3}(?:>[ \t]?|[-+*](?:[ \t]+|$)|\d{1,9}[.)](?:[ \t]+|$))/;

/** Drops container markers past `limit` at the start of each line; other lines stay as they are. */
export function capContainerMarkers(markdown: string, limit = maxNesting): string {
  // Cheap exit: no line can open more than `limit` containers without that many marker characters.
  if (!new RegExp(`(?:(?:[>*+-]|\\d[.)])[ \\t]*){${limit + 1}}`).test(markdown)) return markdown;
  return markdown
    .split("\n")
    .map((line) => {
      let rest = line;
      let kept = "";
      let count = 0;
      for (let match = containerMarker.exec(rest); match && match[0].length > 0; match = containerMarker.exec(rest)) {
        if (count < limit) kept += match[0];
        count += 1;
        rest = rest.slice(match[0].length);
      }
      return count > limit ? kept + rest : line;
    })
    .join("\n");
}

interface TreeNode {
  type: string;
  tagName?: string;
  value?: unknown;
  children?: TreeNode[];
}

/** The text under a node (text, code and math values), without recursion. */
export function textUnder(node: TreeNode): string {
  const parts: string[] = [];
  const stack: TreeNode[] = [node];
  while (stack.length > 0) {
    const current = stack.pop()!;
    if (current.type !== "html" && current.type !== "comment" && typeof current.value === "string") parts.push(current.value);
    if (current.children) for (let index = current.children.length - 1; index >= 0; index -= 1) stack.push(current.children[index]!);
  }
  return parts.join(" ");
}

const text = (value: string): TreeNode => ({ type: "text", value });
const paragraph = (value: string): TreeNode => ({ type: "paragraph", children: [text(value)] });

/** What an over-deep Markdown node keeps as children: its text, in a form its type may contain. */
function flattenedMarkdownChildren(node: TreeNode, value: string): TreeNode[] {
  switch (node.type) {
    case "root":
    case "blockquote":
    case "listItem":
    case "footnoteDefinition":
      return [paragraph(value)];
    case "list":
      return [{ type: "listItem", children: [paragraph(value)] }];
    case "table":
      return [{ type: "tableRow", children: [{ type: "tableCell", children: [text(value)] }] }];
    case "tableRow":
      return [{ type: "tableCell", children: [text(value)] }];
    default:
      return [text(value)];
  }
}

/**
 * Replaces the children of every node at depth `limit` that has grandchildren by the text they
 * hold. `kind` says which tree it is: Markdown nodes need children of the right type, HTML
 * elements accept text anywhere.
 */
export function capTreeDepth(tree: TreeNode, kind: "markdown" | "html", limit = maxNesting): void {
  const stack: Array<{ node: TreeNode; depth: number }> = [{ node: tree, depth: 0 }];
  while (stack.length > 0) {
    const { node, depth } = stack.pop()!;
    if (!node.children) continue;
    if (depth >= limit && node.children.some((child) => child.children && child.children.length > 0)) {
      const value = textUnder(node).replace(/\s+/g, " ").trim();
      node.children = kind === "markdown" ? flattenedMarkdownChildren(node, value) : [text(value)];
      continue;
    }
    for (const child of node.children) stack.push({ node: child, depth: depth + 1 });
  }
}
