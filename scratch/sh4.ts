import { getHighlighter } from "../features/content/highlighter.server.ts";
const h = await getHighlighter();
const base = { lang: "ts", themes: { light: "github-light", dark: "github-dark" }, defaultColor: false } as const;
console.log(h.codeToHtml("const a = 1", { ...base, tokenizeMaxLineLength: 2000 }));
console.log(h.codeToHtml("const a = 1", { ...base, tokenizeTimeLimit: 500 }));
console.log(h.codeToHtml("const a = 1", { ...base, meta: { __raw: "" } }));
