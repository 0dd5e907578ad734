import { createServer } from "node:http";
import { readFileSync } from "node:fs";
import { createElement, type ReactNode } from "react";
import { renderToString } from "react-dom/server";
import { fromHtml } from "hast-util-from-html";
import { toHtml } from "hast-util-to-html";
import type { Element, ElementContent } from "hast";

/**
 * Baseline: React's `renderToString` of the same tree as our signed-in reading page, over bare
 * node:http. It receives once, at start, the complete HTML document our server rendered for the
 * signed-in reader (`<html>` with head, header, writing view and footer) and turns it into an
 * equivalent React element tree: one host element per element of the page, with the same
 * attributes and text; the writing's stored HTML (`.rendered-content`) goes in through
 * `dangerouslySetInnerHTML`, exactly as `RenderedContent` does, and so do inline scripts and
 * styles. The tree's elements are created anew for every request (as components do) and rendered
 * with `renderToString`, so the answer has the page's markup and size; what the baseline leaves out
 * is what makes our page: session lookup, routing, loaders and database queries, translations,
 * our components' logic and streaming.
 */
const [port, bodyFile, headersJson] = process.argv.slice(2);
const page = readFileSync(bodyFile!, "utf8");
const headers = JSON.parse(headersJson!) as Record<string, string>;

interface Node {
  type: string;
  props: Record<string, unknown>;
  children: (Node | string)[];
}

/** hast property names are React's (className, htmlFor, dateTime…), but data-/aria- are camelCased. */
function reactProps(element: Element): Record<string, unknown> {
  const props: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(element.properties)) {
    if (value === null || value === undefined || value === false) continue;
    const name = /^(data|aria)[A-Z0-9]/.test(key)
      ? key.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)
      : key === "xLinkHref"
        ? "xlinkHref"
        : key;
    if (name === "style" && typeof value === "string") {
      props.style = Object.fromEntries(
        value
          .split(";")
          .map((rule) => rule.split(":").map((part) => part.trim()))
          .filter(([property, setting]) => property && setting)
          .map(([property, setting]) => [property!.replace(/-([a-z])/g, (_match, letter: string) => letter.toUpperCase()), setting]),
      );
    } else props[name] = Array.isArray(value) ? value.join(key === "accept" ? "," : " ") : value;
  }
  return props;
}

/** React adds `<link rel="preload" as="image">` for the page's images itself: not taken from our page. */
const isImagePreload = (element: Element) =>
  element.tagName === "link" && element.properties.as === "image" && String(element.properties.rel) === "preload";

function convert(element: Element): Node {
  const props = reactProps(element);
  const classes = element.properties.className;
  const raw =
    element.tagName === "script" || element.tagName === "style" || (Array.isArray(classes) && classes.includes("rendered-content"));
  if (raw)
    return { type: element.tagName, props: { ...props, dangerouslySetInnerHTML: { __html: toHtml(element.children) } }, children: [] };
  const children: (Node | string)[] = [];
  for (const child of element.children as ElementContent[]) {
    if (child.type === "text") children.push(child.value);
    else if (child.type === "element" && !isImagePreload(child)) children.push(convert(child));
  }
  return { type: element.tagName, props, children };
}

const root = fromHtml(page).children.find((child): child is Element => child.type === "element" && child.tagName === "html");
if (!root) throw new Error("baseline-react: the page has no <html> element");
const tree = convert(root);

function element(node: Node | string): ReactNode {
  if (typeof node === "string") return node;
  return createElement(node.type, node.props, ...node.children.map(element));
}

createServer((_request, response) => {
  const body = `<!DOCTYPE html>${renderToString(element(tree))}`;
  response.writeHead(200, headers);
  response.end(body);
}).listen(Number(port), "127.0.0.1", () => {
  console.error(`  (React baseline: our page ${page.length} characters, the baseline's ${renderToString(element(tree)).length + 15})`);
  process.send?.("ready");
});
