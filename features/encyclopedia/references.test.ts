import { describe, expect, it } from "vitest";
import { backLinkHtml, citationMarkdown, referenceText } from "./render.server.ts";

const hardy = {
  label: "hardy",
  authors: ["Hardy, G. H.", "Wright, E. M."],
  title: "An Introduction to the Theory of Numbers",
  publisher: "Oxford University Press",
  year: "2008",
};

describe("the reference list", () => {
  it("ends each part with one full stop, never two after an initial", () => {
    const text = referenceText(hardy);
    expect(text).toBe("Hardy, G. H., Wright, E. M. <em>An Introduction to the Theory of Numbers</em>. Oxford University Press, 2008.");
    expect(text).not.toContain("..");
    expect(referenceText({ label: "a", authors: ["Euclid"], title: "Elements?" })).toBe("Euclid. <em>Elements?</em>");
    expect(referenceText({ label: "b", authors: ["欧几里得"], title: "几何原本。" })).toBe("欧几里得. <em>几何原本。</em>");
  });

  it("links back with ^ alone when cited once, and ^ a b … when cited more often", () => {
    expect(backLinkHtml(["cite-1-1"])).toBe('<a href="#cite-1-1">^</a>');
    expect(backLinkHtml(["cite-1-1", "cite-1-2"])).toBe('^ <a href="#cite-1-1">a</a> <a href="#cite-1-2">b</a>');
    const markdown = citationMarkdown(
      {
        content: "First [@hardy], again [@hardy].",
        references: [hardy],
        citation: { format: "numeric", bracket: "square", position: "superscript", cite_type: "single" },
      },
      "en",
    );
    expect(markdown).toContain('<li id="ref-1">^ <a href="#cite-1-1">a</a> <a href="#cite-1-2">b</a> Hardy, G. H.');
  });
});
