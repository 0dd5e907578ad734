import { describe, expect, it } from "vitest";
import { plainText } from "./registry.ts";
import { snippet } from "./snippets.ts";

const markdown = [
  "勾股定理说 $$ a^2 + b^2 = c^2 $$，其中 $c$ 是斜边，价格 $5 和 $10 不是公式。",
  "",
  "```js",
  "const hypotenuse = Math.hypot(3, 4); // 斜边",
  "```",
  "",
  "再看 \\(x+1\\) 与 \\[ \\sum_{n\\ge1} 1/n \\]。",
].join("\n");

describe("search snippets", () => {
  it("show each formula as a marker in the page's language, never its source, and leave code blocks out", () => {
    const body = plainText(markdown);
    const zh = snippet(body, ["斜边"], "zh-CN");
    expect(zh).toBe("勾股定理说 [公式]，其中 [公式] 是<mark>斜边</mark>，价格 $5 和 $10 不是公式。 再看 [公式] 与 [公式]。");
    expect(snippet(body, ["勾股"], "en")).toContain("<mark>勾股</mark>定理说 [formula]");
    for (const source of ["a^2", "$$", "\\sum", "hypot", "const"]) expect(zh).not.toContain(source);
  });

  it("keeps code searchable: plain text still holds it, set apart for snippets", () => {
    expect(plainText(markdown)).toContain("Math.hypot(3, 4)");
    expect(snippet(plainText("开头\n\n~~~\n未闭合的代码"), [], "zh-CN")).toBe("开头");
  });
});
