import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Root } from "hast";
import { fromHtml } from "hast-util-from-html";
import { sanitize } from "hast-util-sanitize";
import { toHtml } from "hast-util-to-html";
import katex from "katex";
import { describe, expect, it } from "vitest";
import { getHighlighter, codeThemes, normalizeHighlightedProperties } from "./highlighter.server.ts";
import { authorSchema, generatedStyle, outputSchema } from "./sanitize-schema.ts";

const formulas = [
  String.raw`\sqrt{x^2+1}+\sqrt[3]{y}`,
  String.raw`\frac{a}{b}\dfrac{1}{2}\tfrac12\binom{n}{k}`,
  String.raw`\sum_{i=0}^n i^2\int_0^\infty e^{-x}\,dx\oint\iint`,
  String.raw`\begin{pmatrix}1&2\\3&4\end{pmatrix}\begin{vmatrix}a\end{vmatrix}`,
  String.raw`\begin{aligned}a&=b\\c&=d\end{aligned}`,
  String.raw`\begin{array}{c|c}a&b\\\hline c&d\end{array}`,
  String.raw`\begin{cases}a&b\\c&d\end{cases}`,
  String.raw`\begin{CD}A @>a>> B\end{CD}`,
  String.raw`\overrightarrow{AB}\widehat{xyz}\overbrace{a+b}^{n}\underbrace{a+b}_{n}\xrightarrow[under]{over}\utilde{AB}`,
  String.raw`\cancel{x}\bcancel{y}\xcancel{z}\sout{abc}\boxed{x}\fbox{y}`,
  String.raw`\color{red}{x}\textcolor{#ff0000}{y}\colorbox{yellow}{z}\fcolorbox{red}{blue}{w}`,
  String.raw`\left(\frac{a}{b}\right)\Bigg[\bigl(\bigr)`,
  String.raw`\mathbb{R}\mathcal{L}\mathfrak{g}\mathscr{A}\mathrm{d}\mathbf{v}\mathsf{s}\mathtt{t}\boldsymbol{\alpha}`,
  String.raw`\text{hello 你好}\textbf{a}\textit{b}`,
  String.raw`\hspace{1em}\kern2em\mkern3mu\rule{1em}{2em}\raisebox{0.5em}{x}`,
  String.raw`\tag{1} x`,
  String.raw`\not=\stackrel{a}{=}\overset{a}{b}\underset{c}{d}\phantom{x}\smash{y}`,
  String.raw`\large x\Huge y\tiny z\displaystyle a\scriptstyle b`,
  String.raw`\lim_{x\to0}\operatorname{foo}\vec{x}\hat{y}\tilde{z}\bar{w}\dot{a}\ddot{b}\mathring{A}`,
  String.raw`a\\b`,
  String.raw`\undefinedcommand`,
];

function katexTree(tex: string, displayMode: boolean): Root {
  return fromHtml(
    katex.renderToString(tex, { displayMode, throwOnError: false, strict: "ignore", trust: false, maxExpand: 100, maxSize: 20 }),
    { fragment: true },
  );
}

describe("output schema", () => {
  it.each(formulas)("keeps KaTeX's markup for %s unchanged", (tex) => {
    for (const displayMode of [false, true]) {
      const tree = katexTree(tex, displayMode);
      expect(toHtml(sanitize(tree, outputSchema))).toBe(toHtml(tree));
    }
  });

  it("allows every class KaTeX's stylesheet styles", () => {
    const stylesheet = readFileSync(createRequire(import.meta.url).resolve("katex/dist/katex.css"), "utf8");
    const rules = stylesheet.replace(/\/\*[\s\S]*?\*\//g, "").replace(/url\([^)]*\)/g, "");
    // `katex-version` only lets a page read the version from the stylesheet; KaTeX never emits it.
    const classes = new Set(
      [...rules.matchAll(/\.([a-zA-Z][\w-]*)/g)].map((match) => match[1]!).filter((name) => name !== "katex-version"),
    );
    const probe: Root = {
      type: "root",
      children: [{ type: "element", tagName: "span", properties: { className: [...classes] }, children: [] }],
    };
    expect(toHtml(sanitize(probe, outputSchema))).toBe(toHtml(probe));
  });

  it("keeps Shiki's markup for both themes unchanged", async () => {
    const highlighter = await getHighlighter();
    for (const [lang, code] of [
      ["ts", "const a: number = 1; // note"],
      ["python", "def f(x):\n    return f'{x}'"],
      ["html", "<b class='x'>y</b>"],
      ["latex", "\\section{A} $x^2$"],
    ]) {
      const tree = highlighter.codeToHast(code!, { lang: lang!, themes: codeThemes, defaultColor: false });
      normalizeHighlightedProperties()(tree);
      expect(toHtml(sanitize(tree, outputSchema))).toBe(toHtml(tree));
    }
  });

  it("allows only KaTeX's and Shiki's style declarations", () => {
    for (const style of [
      "height:0.908em;vertical-align:-0.0833em;",
      "--shiki-light:#D73A49;--shiki-dark:#F97583",
      "color:#cc0000",
      "border: 0.04em solid red",
      "position:relative;top:-0.0011em;",
      "--shiki-dark-font-style:italic",
    ]) {
      expect(generatedStyle.test(style), style).toBe(true);
    }
    for (const style of [
      "position:fixed",
      "background:url(https://evil.example/x)",
      "background-image:url(x)",
      "color:expression(alert(1))",
      "width:calc(100vw)",
      "--shiki-light:var(--x)",
      "color:red;}body{display:none",
      "behavior:url(x.htc)",
      "color:\\72 ed",
      "display:none",
      "height:1em/**/;position:fixed",
    ]) {
      expect(generatedStyle.test(style), style).toBe(false);
    }
  });

  it("lets authors set no style and no KaTeX or Shiki class", () => {
    const tree = fromHtml(
      '<span class="katex mord shiki" style="color:red">x</span><pre class="shiki" style="--shiki-light:#000"><code class="language-ts">y</code></pre>',
      { fragment: true },
    );
    expect(toHtml(sanitize(tree, authorSchema))).toBe('<span>x</span><pre><code class="language-ts">y</code></pre>');
  });

  it("accepts only prefixed ids in the output", () => {
    const tree = fromHtml('<h2 id="user-content-a">a</h2><h2 id="content">b</h2><a name="site" href="#x">c</a>', { fragment: true });
    expect(toHtml(sanitize(tree, outputSchema))).toBe('<h2 id="user-content-a">a</h2><h2>b</h2><a href="#x">c</a>');
  });
});
