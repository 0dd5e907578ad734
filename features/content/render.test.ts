import { afterAll, describe, expect, it } from "vitest";
import { closeRenderer, renderMarkdown } from "./render.server.ts";
import { excerptOfHtml } from "./excerpt.ts";

afterAll(closeRenderer);

const render = async (markdown: string, locale: "zh-CN" | "en" = "en") => (await renderMarkdown(markdown, { locale })).html;

describe("renderMarkdown: math", () => {
  it("renders inline and display formulas with KaTeX (HTML and MathML)", async () => {
    const html = await render("Euler: $e^{i\\pi}+1=0$.\n\n$$\n\\int_0^1 x\\,dx = \\frac{1}{2}\n$$");
    expect(html).toMatch(/<p>Euler: <span class="katex"><span class="katex-mathml"><math xmlns="http:\/\/www.w3.org\/1998\/Math\/MathML">/);
    expect(html).toContain('<annotation encoding="application/x-tex">e^{i\\pi}+1=0</annotation>');
    expect(html).toContain('<span class="katex-display"><span class="katex">');
    expect(html).toContain('<math xmlns="http://www.w3.org/1998/Math/MathML" display="block">');
    expect(html).toContain('class="mfrac"');
    expect(html).toMatch(/<span class="strut" style="height:[\d.]+em;vertical-align:-[\d.]+em;"><\/span>/);
    // Square roots are drawn with KaTeX's SVG, which the output schema keeps.
    expect(await render("$\\sqrt{2}$")).toMatch(
      /<svg xmlns="http:\/\/www.w3.org\/2000\/svg" width="400em" height="[\d.]+em" viewBox="0 0 400000 \d+" preserveAspectRatio="xMinYMin slice"><path d="M/,
    );
  });

  it("shows a broken formula inline as an error and renders the rest", async () => {
    const html = await render("Before $\\frac{1$ after $x$.");
    expect(html).toMatch(
      /^<p>Before <span class="katex-error" title="ParseError: KaTeX parse error: [^"]*" style="color:#cc0000">\\frac\{1<\/span> after <span class="katex">/,
    );
  });

  it("refuses absurdly nested formulas without calling KaTeX", async () => {
    const html = await render(`$${"{".repeat(500)}x${"}".repeat(500)}$`);
    expect(html).toContain(
      '<span class="katex-error" title="This formula is too long or too deeply nested to render." style="color:#cc0000">{{{',
    );
  });

  it("renders ```math fences as display formulas", async () => {
    expect(await render("```math\na^2+b^2=c^2\n```")).toMatch(/^<span class="katex-display">/);
  });
});

describe("renderMarkdown: code", () => {
  it("highlights code blocks with Shiki colour variables for both themes", async () => {
    const html = await render("```ts\nconst answer: number = 42;\n```");
    expect(html).toMatch(
      /^<pre class="shiki shiki-themes github-light github-dark" style="--shiki-light:#24292e;--shiki-dark:#e1e4e8;--shiki-light-bg:#fff;--shiki-dark-bg:#24292e" tabindex="0"><code class="language-ts"><span class="line">/,
    );
    expect(html).toContain(
      '<span style="--shiki-light:#D73A49;--shiki-dark:#F97583">const</span><span style="--shiki-light:#005CC5;--shiki-dark:#79B8FF"> answer</span>',
    );
    expect(html).not.toMatch(/style="color:/);
  });

  it.each([
    "python",
    "py",
    "c",
    "cpp",
    "java",
    "go",
    "rust",
    "sql",
    "bash",
    "sh",
    "json",
    "html",
    "css",
    "latex",
    "markdown",
    "js",
    "javascript",
    "typescript",
  ])("knows %s", async (language) => {
    const html = await render(`\`\`\`${language}\nif (x) { return "y" } // z\n\`\`\``);
    expect(html).toContain(`<code class="language-${language}">`);
    expect(html).toMatch(/<span style="--shiki-light:#[0-9A-F]{6};--shiki-dark:#[0-9A-F]{6}">/i);
  });

  it("shows unknown and missing languages as plain text", async () => {
    for (const fence of ["```klingon", "```"]) {
      const html = await render(`${fence}\n<b>qapla'</b>\n\`\`\``);
      expect(html).toBe(
        '<pre class="shiki shiki-themes github-light github-dark" style="--shiki-light:#24292e;--shiki-dark:#e1e4e8;--shiki-light-bg:#fff;--shiki-dark-bg:#24292e" tabindex="0"><code class="language-text"><span class="line"><span>&#x3C;b>qapla\'&#x3C;/b></span></span></code></pre>',
      );
    }
  });
});

describe("renderMarkdown: GitHub Flavored Markdown", () => {
  it("renders tables with alignment", async () => {
    const html = await render("| Name | Count |\n| :--- | ----: |\n| a | 1 |");
    expect(html).toBe(
      '<table>\n<thead>\n<tr>\n<th align="left">Name</th>\n<th align="right">Count</th>\n</tr>\n</thead>\n<tbody>\n<tr>\n<td align="left">a</td>\n<td align="right">1</td>\n</tr>\n</tbody>\n</table>',
    );
  });

  it("renders task lists as disabled checkboxes", async () => {
    expect(await render("- [ ] todo\n- [x] done")).toBe(
      '<ul class="contains-task-list">\n<li class="task-list-item"><input type="checkbox" disabled> todo</li>\n<li class="task-list-item"><input type="checkbox" checked disabled> done</li>\n</ul>',
    );
  });

  it("renders strikethrough and autolinks", async () => {
    expect(await render("~~old~~ www.example.com")).toBe(
      '<p><del>old</del> <a href="http://www.example.com" rel="nofollow ugc noopener">www.example.com</a></p>',
    );
  });

  it("renders footnotes whose links reach their targets, labelled in the page's language", async () => {
    const html = await render("Claim[^source].\n\n[^source]: Evidence.", "zh-CN");
    expect(html).toContain(
      '<sup><a href="#user-content-fn-source" id="user-content-fnref-source" data-footnote-ref="" aria-describedby="user-content-footnote-label">1</a></sup>',
    );
    expect(html).toContain('<h2 class="sr-only" id="user-content-footnote-label">脚注</h2>');
    expect(html).toContain('<li id="user-content-fn-source">');
    expect(html).toContain(
      '<a href="#user-content-fnref-source" data-footnote-backref="" aria-label="返回引用 1" class="data-footnote-backref">↩</a>',
    );
    expect(await render("a[^1]\n\n[^1]: b")).toContain('aria-label="Back to reference 1"');
  });

  it("keeps GitHub's harmless raw HTML", async () => {
    expect(await render("<details><summary>More</summary>Press <kbd>Ctrl</kbd> H<sub>2</sub>O</details>")).toBe(
      "<details><summary>More</summary>Press <kbd>Ctrl</kbd> H<sub>2</sub>O</details>",
    );
  });
});

describe("renderMarkdown: headings, links and images", () => {
  it("gives headings ids that keep Chinese and returns the table of contents", async () => {
    const result = await renderMarkdown(
      "# 第一章 开始\n\n## Getting *started*\n\n### 第一章 开始\n\n#### $E=mc^2$ 公式\n\n[跳转](#第一章-开始)",
    );
    expect(result.html).toContain('<h1 id="user-content-第一章-开始">第一章 开始</h1>');
    expect(result.html).toContain('<h3 id="user-content-第一章-开始-1">第一章 开始</h3>');
    expect(result.toc).toEqual([
      { depth: 1, text: "第一章 开始", id: "user-content-第一章-开始" },
      { depth: 2, text: "Getting started", id: "user-content-getting-started" },
      { depth: 3, text: "第一章 开始", id: "user-content-第一章-开始-1" },
      { depth: 4, text: "E=mc^2 公式", id: "user-content-emc2-公式" },
    ]);
    // Markdown percent-encodes the link; browsers decode fragments before matching ids.
    expect(result.html).toContain(`<a href="#user-content-${encodeURIComponent("第一章-开始")}">跳转</a>`);
  });

  it("marks links as user content and never lets authors set a target", async () => {
    expect(
      await render('[a](https://example.com "t") <a href="https://example.com" target="_blank" rel="opener">b</a> [c](/circles/1)'),
    ).toBe(
      '<p><a href="https://example.com" title="t" rel="nofollow ugc noopener">a</a> <a href="https://example.com" rel="nofollow ugc noopener">b</a> <a href="/circles/1" rel="nofollow ugc noopener">c</a></p>',
    );
  });

  it("shows attachment images, links web images and drops other sources", async () => {
    expect(await render("![diagram](/attach/Ab3_x-9.png)")).toBe('<p><img src="/attach/Ab3_x-9.png" alt="diagram" loading="lazy"></p>');
    expect(await render("![photo](https://example.com/p.jpg) ![](https://example.com/q.jpg)")).toBe(
      '<p><a href="https://example.com/p.jpg" rel="nofollow ugc noopener">photo</a> <a href="https://example.com/q.jpg" rel="nofollow ugc noopener">https://example.com/q.jpg</a></p>',
    );
    expect(
      await render("![inline](data:image/png;base64,AAAA) ![rel](pic.png) [![nested](https://example.com/n.png)](https://example.com)"),
    ).toBe('<p>inline rel <a href="https://example.com" rel="nofollow ugc noopener">nested</a></p>');
  });
});

describe("renderMarkdown: text length, reading time, excerpt", () => {
  it("counts Chinese characters one by one", async () => {
    const result = await renderMarkdown("# 标题\n\n你好，世界！\n\n- 一\n- 二");
    expect(result.textLength).toBe(2 + 6 + 2);
    expect(result.readingMinutes).toBe(1);
    expect(result.excerpt).toBe("你好，世界！");
  });

  it("counts English text by code points without whitespace, and reads 200 words a minute", async () => {
    const result = await renderMarkdown("Hello, *big* world.\n\nSecond paragraph[^1].\n\n[^1]: Note.");
    expect(result.textLength).toBe("Hello,bigworld.Secondparagraph.Note.".length);
    const long = await renderMarkdown("word ".repeat(1_000));
    expect(long.readingMinutes).toBe(5);
    expect(long.excerpt).toBe(`${"word ".repeat(27)}word…`);
  });

  it("reads 400 Chinese characters a minute and adds the words of other scripts", async () => {
    expect((await renderMarkdown("汉".repeat(1_200))).readingMinutes).toBe(3);
    expect((await renderMarkdown(`${"汉".repeat(400)}\n\n${"word ".repeat(200)}`)).readingMinutes).toBe(2);
    expect(await renderMarkdown("")).toMatchObject({ html: "", toc: [], textLength: 0, readingMinutes: 0, excerpt: "" });
  });
});

describe("renderMarkdown: excerpts read the rendered text", () => {
  it("gives formulas as their rendered text when they read as a line, a marker when flattening would mislead, and skips code blocks", async () => {
    const result = await renderMarkdown(
      "The encoding $PE_{(pos,2i)}=\\sin(pos)$ and $\\mathrm{Attention}(Q,K,V)$.\n\n```python\nprint('hidden')\n```\n\nAfter `x` the end.\n\n$$\n\\frac{a}{b}\n$$",
      { locale: "en" },
    );
    expect(result.excerpt).not.toMatch(/[\\{}^_]/);
    expect(result.excerpt).not.toContain("mathrm");
    expect(result.excerpt).not.toContain("print");
    expect(result.excerpt).toBe("The encoding [formula] and Attention(Q,K,V). After x the end.");
  });

  it("never flattens a sum, a power or an index into misleading text", async () => {
    const zh = await renderMarkdown("调和级数 $\\sum_{n\\ge1} 1/n$ 发散；欧拉恒等式 $e^{i\\pi}+1=0$；$\\sin(\\pi)=0$。", {
      locale: "zh-CN",
    });
    expect(zh.excerpt).toBe("调和级数 [公式] 发散；欧拉恒等式 [公式]；sin(π)=0。");
    expect(zh.excerpt).not.toMatch(/n≥11|eiπ/);
  });

  it("recomputes the same excerpt from stored HTML", async () => {
    const result = await renderMarkdown("勾股定理：$a^2+b^2=c^2$，证明如下。", { locale: "zh-CN" });
    expect(result.excerpt).toBe("勾股定理：[公式]，证明如下。");
    expect(excerptOfHtml(result.html, 140, "zh-CN")).toBe(result.excerpt);
  });
});
