import type { ElementContent, Root } from "hast";
import { visit } from "unist-util-visit";
import { clobberPrefix } from "./sanitize-schema.ts";

/**
 * Link and image rules of rendered content.
 *
 * Images load only from our attachments (`/attach/<file_id>`): the site's Content-Security-Policy
 * allows no other image host, and a third-party image would tell that host who reads what. An
 * image from the web becomes a link to it (its alt text, or else its address, as the link text);
 * any other image source (`data:`, `javascript:`, relative paths) is dropped and its alt text kept.
 */
const attachmentSource = /^\/attach\/[A-Za-z0-9_-][A-Za-z0-9_.-]{0,127}$/;
const webAddress = /^https?:\/\/[^\s]/i;
export const linkRel = ["nofollow", "ugc", "noopener"];

/** `#x` → `#user-content-x`: the sanitizer gave every id that prefix. */
export function pointFragmentsAtPrefixedIds() {
  return (tree: Root) => {
    visit(tree, "element", (node) => {
      const href = node.properties.href;
      if (node.tagName !== "a" || typeof href !== "string" || !href.startsWith("#") || href.length === 1) return;
      if (!href.startsWith(`#${clobberPrefix}`)) node.properties.href = `#${clobberPrefix}${href.slice(1)}`;
    });
  };
}

export function restrictImages() {
  return (tree: Root) => {
    visit(tree, "element", (node, index, parent) => {
      if (node.tagName !== "img" || !parent || index === undefined) return undefined;
      const source = typeof node.properties.src === "string" ? node.properties.src.trim() : "";
      if (attachmentSource.test(source)) {
        node.properties.src = source;
        node.properties.loading = "lazy";
        return undefined;
      }
      const alt = typeof node.properties.alt === "string" ? node.properties.alt : "";
      const insideLink = parent.type === "element" && parent.tagName === "a";
      let replacement: ElementContent[] = alt ? [{ type: "text", value: alt }] : [];
      if (webAddress.test(source) && !insideLink) {
        replacement = [{ type: "element", tagName: "a", properties: { href: source }, children: [{ type: "text", value: alt || source }] }];
      }
      parent.children.splice(index, 1, ...replacement);
      return index;
    });
  };
}

/** Links leaving the page are marked as user-written and unendorsed; none opens a new window. */
export function markLinks() {
  return (tree: Root) => {
    visit(tree, "element", (node) => {
      if (node.tagName !== "a") return;
      delete node.properties.target;
      const href = node.properties.href;
      if (typeof href === "string" && !href.startsWith("#")) node.properties.rel = [...linkRel];
    });
  };
}
