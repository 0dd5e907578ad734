import type { Element, Root } from "hast";
import { fromHtml } from "hast-util-from-html";
import { visit } from "unist-util-visit";
import { afterAll, describe, expect, it } from "vitest";
import { AppError } from "../../common/app-error.ts";
import { hostileCorpus, megabyteDocument } from "./hostile-corpus.ts";
import { capContainerMarkers, capTreeDepth, maxNesting } from "./nesting.ts";
import { closeRenderer, renderMarkdown } from "./render.server.ts";
import { generatedStyle } from "./sanitize-schema.ts";

afterAll(closeRenderer);

/** Elements rendered content may contain: GitHub's set, KaTeX's MathML and SVG, nothing else. */
const allowedElements = new Set([
  "a",
  "b",
  "blockquote",
  "br",
  "code",
  "dd",
  "del",
  "details",
  "div",
  "dl",
  "dt",
  "em",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "hr",
  "i",
  "img",
  "input",
  "ins",
  "kbd",
  "li",
  "ol",
  "p",
  "picture",
  "pre",
  "q",
  "rp",
  "rt",
  "ruby",
  "s",
  "samp",
  "section",
  "span",
  "strike",
  "strong",
  "sub",
  "summary",
  "sup",
  "table",
  "tbody",
  "td",
  "tfoot",
  "th",
  "thead",
  "tr",
  "tt",
  "ul",
  "var",
  "math",
  "semantics",
  "annotation",
  "mrow",
  "mi",
  "mn",
  "mo",
  "ms",
  "mtext",
  "mspace",
  "msup",
  "msub",
  "msubsup",
  "mfrac",
  "msqrt",
  "mroot",
  "mover",
  "munder",
  "munderover",
  "mtable",
  "mtr",
  "mtd",
  "mpadded",
  "mphantom",
  "mstyle",
  "menclose",
  "svg",
  "path",
  "line",
]);
const urlAttributes = new Set([
  "href",
  "src",
  "cite",
  "longDesc",
  "action",
  "formAction",
  "xLinkHref",
  "data",
  "background",
  "poster",
  "srcSet",
  "codeBase",
  "manifest",
]);
const safeHref = /^(?:#user-content-|\/(?!\/)|https?:\/\/|mailto:|irc:|ircs:|xmpp:|\.{0,2}[^:]*$)/i;

/** Browsers ignore whitespace and control characters inside a URL's scheme. */
const withoutControls = (text: string) => [...text].filter((character) => character.charCodeAt(0) > 0x20).join("");

/** Every problem found in `html`: empty when nothing dangerous survived. */
function dangers(html: string): string[] {
  const problems: string[] = [];
  const tree = fromHtml(html, { fragment: true }) as Root;
  visit(tree, (node) => {
    if (node.type === "comment") problems.push("comment");
    if (node.type !== "element") return;
    const element = node as Element;
    if (!allowedElements.has(element.tagName)) problems.push(`<${element.tagName}>`);
    for (const [name, value] of Object.entries(element.properties)) {
      const text = Array.isArray(value) ? value.join(" ") : String(value);
      if (/^on/i.test(name)) problems.push(`${element.tagName}[${name}]`);
      if (["target", "srcSet", "formAction", "action", "xLinkHref", "srcDoc", "data", "background", "poster"].includes(name))
        problems.push(`${element.tagName}[${name}]`);
      if (urlAttributes.has(name) && /(?:java|vb)script:|data:/i.test(withoutControls(text)))
        problems.push(`${element.tagName}[${name}]=${text.slice(0, 40)}`);
      if (name === "style" && !generatedStyle.test(text)) problems.push(`style=${text.slice(0, 60)}`);
      if (name === "href" && !safeHref.test(text)) problems.push(`href=${text.slice(0, 60)}`);
      if (name === "src" && !/^\/attach\/[\w-][\w.-]*$/.test(text)) problems.push(`src=${text}`);
      if ((name === "id" || name === "name") && !text.startsWith("user-content-")) problems.push(`${name}=${text}`);
      if (name === "rel" && text !== "nofollow ugc noopener") problems.push(`rel=${text}`);
    }
    if (
      element.tagName === "a" &&
      typeof element.properties.href === "string" &&
      !element.properties.href.startsWith("#") &&
      element.properties.rel === undefined
    )
      problems.push("link without rel");
    const classes = element.properties.className;
    if (
      Array.isArray(classes) &&
      classes.length > 0 &&
      element.properties.style !== undefined &&
      !/^(?:span|pre|svg)$/.test(element.tagName)
    )
      problems.push(`styled <${element.tagName}>`);
  });
  return problems;
}

/** Generous: on a loaded two-core machine the worst corpus document takes a few seconds. */
const timeBoundMs = 40_000;

describe("hostile input", () => {
  it.each(hostileCorpus)(
    "$name: nothing dangerous survives, within the time bound",
    async ({ markdown }) => {
      const started = performance.now();
      let html = "";
      try {
        html = (await renderMarkdown(markdown)).html;
      } catch (error) {
        // A document may be refused as too complex, but only with that clean error.
        expect(error).toBeInstanceOf(AppError);
        expect((error as AppError).code).toBe("content_too_complex");
      }
      expect(performance.now() - started).toBeLessThan(timeBoundMs);
      expect(dangers(html)).toEqual([]);
      expect(html).not.toMatch(/<(?:script|iframe|form|style|object|embed|link|meta|base|frame|frameset|textarea|button|select)[\s>/]/i);
    },
    60_000,
  );

  it("keeps the author's text where markup is removed", async () => {
    const { html } = await renderMarkdown(hostileCorpus.find((entry) => entry.name === "event handlers")!.markdown);
    expect(html).toContain("hover");
    expect(html).not.toMatch(/onclick|onmouseover|onerror|ontoggle|onfocus|autofocus/i);
  });

  it("renders KaTeX's dangerous commands as errors, not as links or markup", async () => {
    const corpus = (name: string) => hostileCorpus.find((entry) => entry.name === name)!.markdown;
    const { html } = await renderMarkdown(`${corpus("katex href and url")}\n\n${corpus("katex html commands")}`);
    expect(html).not.toMatch(/<a[\s>]/);
    expect(html).not.toMatch(/class="[^"]*\bsite\b/);
    expect(html).not.toContain('id="__pwned"');
    expect(html).not.toMatch(/style="[^"]*position:fixed/);
    expect(html).toContain("\\href");
    expect(html).toContain("color:#cc0000");
  });

  it("stops macro bombs at KaTeX's expansion limit", async () => {
    const { html } = await renderMarkdown(hostileCorpus.find((entry) => entry.name === "katex macro bombs")!.markdown);
    expect(html).toContain("katex-error");
    expect(html.length).toBeLessThan(200_000);
  });

  it("bounds deep nesting instead of overflowing", async () => {
    const { html } = await renderMarkdown(hostileCorpus.find((entry) => entry.name === "deeply nested quotes")!.markdown);
    expect(html.match(/<blockquote>/g)?.length).toBe(maxNesting);
    expect(html).toContain("deep");
    const lists = await renderMarkdown(hostileCorpus.find((entry) => entry.name === "deeply nested html")!.markdown);
    expect(lists.html).toContain("deep");
    expect(lists.html.match(/<div>/g)!.length).toBeLessThanOrEqual(maxNesting);
  }, 60_000);

  it("refuses documents over the size limit before any work", async () => {
    const started = performance.now();
    await expect(renderMarkdown(megabyteDocument)).rejects.toMatchObject({ code: "content_too_large", status: 413, params: { max: 200 } });
    await expect(renderMarkdown("x".repeat(10 * 1024 + 1), { kind: "comment" })).rejects.toMatchObject({
      code: "content_too_large",
      params: { max: 10 },
    });
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it("ends a render that exceeds its time limit and keeps serving", async () => {
    const slow = "*a ".repeat(30_000) + "b" + " a*".repeat(30_000);
    await expect(renderMarkdown(slow, { timeLimitMs: 300 })).rejects.toMatchObject({ code: "content_too_complex", status: 422 });
    const { html } = await renderMarkdown("still **here**");
    expect(html).toBe("<p>still <strong>here</strong></p>");
  }, 120_000);
});

describe("nesting limits", () => {
  it("drops container markers past the limit, keeping the line's text", () => {
    expect(capContainerMarkers(">".repeat(100) + " x", 3)).toBe(">>>x");
    expect(capContainerMarkers("- ".repeat(100) + "x", 2)).toBe("- - x");
    expect(capContainerMarkers("1. ".repeat(100) + "x", 2)).toBe("1. 1. x");
    const ordinary = "> quote\n- item\n  - nested\n\n---\n| a | b |";
    expect(capContainerMarkers(ordinary, 3)).toBe(ordinary);
  });

  it("flattens trees below the depth limit into text, without recursion", () => {
    type Node = { type: string; tagName?: string; value?: string; children?: Node[] };
    let leaf: Node = { type: "text", value: "bottom" };
    for (let level = 0; level < 100_000; level += 1) leaf = { type: "element", tagName: "div", children: [leaf] };
    const root: Node = { type: "root", children: [leaf] };
    capTreeDepth(root, "html", 5);
    let depth = 0;
    let node: Node | undefined = root;
    while (node?.children?.length) {
      node = node.children[0];
      depth += 1;
    }
    expect(depth).toBe(6);
    expect(node).toEqual({ type: "text", value: "bottom" });
  });
});
