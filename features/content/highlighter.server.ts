import type { Root } from "hast";
import { visit } from "unist-util-visit";
import { createHighlighterCore, type HighlighterCore } from "shiki/core";
import { createOnigurumaEngine } from "shiki/engine/oniguruma";

/**
 * Shiki with a fixed set of languages and our two themes, created once per thread on first use
 * (loading grammars and the regex engine takes a few hundred milliseconds). A fence naming any
 * other language is shown as plain text.
 */
export const codeThemes = { light: "github-light", dark: "github-dark" } as const;

const languageModules = () => [
  import("shiki/langs/typescript.mjs"),
  import("shiki/langs/javascript.mjs"),
  import("shiki/langs/python.mjs"),
  import("shiki/langs/c.mjs"),
  import("shiki/langs/cpp.mjs"),
  import("shiki/langs/java.mjs"),
  import("shiki/langs/go.mjs"),
  import("shiki/langs/rust.mjs"),
  import("shiki/langs/sql.mjs"),
  import("shiki/langs/shellscript.mjs"),
  import("shiki/langs/json.mjs"),
  import("shiki/langs/html.mjs"),
  import("shiki/langs/css.mjs"),
  import("shiki/langs/latex.mjs"),
  import("shiki/langs/markdown.mjs"),
];

let highlighter: Promise<HighlighterCore> | undefined;

export function getHighlighter(): Promise<HighlighterCore> {
  highlighter ??= createHighlighterCore({
    themes: [import("shiki/themes/github-light.mjs"), import("shiki/themes/github-dark.mjs")],
    langs: languageModules(),
    engine: createOnigurumaEngine(import("shiki/wasm")),
  }).then((created) => {
    // Shiki 4.6 gives the first block of a language wrong light-theme colours when it highlights
    // with two themes; one throwaway block per language settles it.
    for (const lang of created.getLoadedLanguages()) created.codeToHast("x", { lang, themes: codeThemes, defaultColor: false });
    return created;
  });
  return highlighter;
}

/**
 * Shiki writes HTML attribute names (`class`, `tabindex`) where hast uses property names
 * (`className`, `tabIndex`); the sanitizer knows only the latter, so they are renamed.
 */
export function normalizeHighlightedProperties() {
  return (tree: Root) => {
    visit(tree, "element", (node) => {
      if (!("class" in node.properties) && !("tabindex" in node.properties)) return;
      node.properties = Object.fromEntries(
        Object.entries(node.properties).map(([name, value]) => {
          if (name === "class") return ["className", Array.isArray(value) ? value : String(value).split(/\s+/).filter(Boolean)];
          if (name === "tabindex") return ["tabIndex", Number(value)];
          return [name, value];
        }),
      );
    });
  };
}
