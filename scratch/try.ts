import { renderMarkdown, closeRenderer } from "../features/content/render.server.ts";
const md = `# 你好 世界

Some *text* with $e^{i\\pi}+1=0$ and a footnote[^1].

$$
\\int_0^1 x\\,dx = \\frac12
$$

\`\`\`ts
const x: number = 1; // hi
\`\`\`

\`\`\`klingon
qapla
\`\`\`

| a | b |
|---|---|
| 1 | ~~2~~ |

- [ ] todo
- [x] done

[link](https://example.com) [in](#你好-世界) <img src=x onerror=alert(1)> ![att](/attach/abc123) ![ext](https://evil.com/x.png)

<details><summary>More</summary>hidden <kbd>Ctrl</kbd></details>

$\\frac{$ and $\\href{javascript:alert(1)}{x}$

[^1]: The note.
`;
let t = performance.now();
const r = await renderMarkdown(md, { locale: "en" });
console.log("first", performance.now() - t);
console.log(r.html); console.log(JSON.stringify({ ...r, html: undefined }, null, 1));
for (let i = 0; i < 5; i++) { t = performance.now(); await renderMarkdown(md); console.log("again", performance.now() - t); }
await closeRenderer();
