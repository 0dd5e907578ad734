import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * Our stylesheets are plain CSS: one unclosed block (a merge once dropped the `}` of a dark-mode
 * `@media`) silently moves every later rule into it, so half the site lost its styles in light mode.
 */
function openBlocksAtEnd(css: string): { depth: number; neverNegative: boolean } {
  const code = css.replace(/\/\*[\s\S]*?\*\//g, "").replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g, '""');
  let depth = 0;
  let neverNegative = true;
  for (const character of code) {
    if (character === "{") depth += 1;
    else if (character === "}") depth -= 1;
    if (depth < 0) neverNegative = false;
  }
  return { depth, neverNegative };
}

const folder = import.meta.dirname;
const sheets = readdirSync(folder).filter((name) => name.endsWith(".css") && !name.includes(".generated."));

describe("stylesheets", () => {
  it("are found", () => {
    expect(sheets).toContain("global.css");
  });

  it.each(sheets)("%s closes every block it opens", (name) => {
    expect(openBlocksAtEnd(readFileSync(path.join(folder, name), "utf8"))).toEqual({ depth: 0, neverNegative: true });
  });
});
