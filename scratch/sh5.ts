import { getHighlighter } from "../features/content/highlighter.server.ts";
const h = await getHighlighter();
const base = { lang: "ts", themes: { light: "github-light", dark: "github-dark" }, defaultColor: false } as const;
const show = (o: object) => console.log(h.codeToHtml("const a = 1", { ...base, ...o }).match(/<span style="[^"]*"> a/)?.[0]);
show({});
show({ tokenizeTimeLimit: 500 });
show({ transformers: [{ name: "x", code(node: any) { this.addClassToHast(node, "language-ts"); return node; } }] });
show({ tokenizeTimeLimit: 500, meta: { __raw: "" } });
show({});
