import { getHighlighter } from "../features/content/highlighter.server.ts";
const h = await getHighlighter();
const themes = { themes: { light: "github-light", dark: "github-dark" }, defaultColor: false } as const;
for (const lang of h.getLoadedLanguages()) h.codeToHast("x", { lang, ...themes });
const dual = (lang: string, code: string) => h.codeToHtml(code, { lang, ...themes }).match(/<span style="[^"]*">[^<]*/g)!.map(s => s.replace(/<span style="--shiki-light:/, "").replace(/;--shiki-dark:#\w+"/, "")).join(" | ");
console.log("ts dual first ", dual("ts", "const a = 1"));
console.log("ts dual first ", dual("ts", "const a: number = 1; // x"));
console.log("js ", dual("js", "const a = 1"));
console.log("html ", dual("html", "<b onclick='x()'>const a = 1</b>"));
