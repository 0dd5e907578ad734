import { getHighlighter } from "../features/content/highlighter.server.ts";
const h = await getHighlighter();
console.log(h.codeToHtml("const a = 1", { lang: "ts", theme: "github-light" }));
console.log(h.codeToHtml("const a = 1", { lang: "ts", theme: "github-dark" }));
console.log(h.codeToHtml("const a = 1", { lang: "ts", themes: { light: "github-light", dark: "github-dark" }, defaultColor: false }));
