import { getHighlighter } from "../features/content/highlighter.server.ts";
const h = await getHighlighter();
const r = h.codeToHast("const a = 1", { lang: "ts", themes: { light: "github-light", dark: "github-dark" }, defaultColor: false });
console.log(JSON.stringify(r.children[0].properties), JSON.stringify((r.children[0] as any).children[0].properties));
console.log(h.getLoadedLanguages().join(" "));
