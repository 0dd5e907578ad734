import { renderInThisThread } from "../features/content/pipeline.server.ts";
import { renderMarkdown, closeRenderer } from "../features/content/render.server.ts";
const zh = "Markdown 是一种轻量级标记语言，让作者用纯文本写作，再转换成结构化的网页。";
const en = "This paragraph mixes English words with Chinese text so that the counter sees both scripts. ";
const md = `# 快速入门 Getting started\n\n${(zh + en).repeat(5)}\n\n## 公式\n\n质能方程 $E=mc^2$ 与求和：\n\n$$\n\\sum_{i=1}^{n} i = \\frac{n(n+1)}{2}\n$$\n\n## 代码\n\n\`\`\`python\ndef fibonacci(n):\n    a, b = 0, 1\n    for _ in range(n):\n        a, b = b, a + b\n    return a\n\`\`\`\n\n${(en + zh).repeat(6)}\n\n- [x] one\n- [ ] two\n\n| a | b |\n|---|---|\n| 1 | 2 |\n`;
console.log("bytes", Buffer.byteLength(md));
const opts = { locale: "zh-CN" as const, excerptLength: 140 };
for (let i = 0; i < 5; i++) await renderInThisThread(md, opts);
const times: number[] = [];
for (let i = 0; i < 100; i++) { const t = performance.now(); await renderInThisThread(md, opts); times.push(performance.now() - t); }
times.sort((a, b) => a - b); console.log("in-thread median", times[50].toFixed(1), "min", times[0].toFixed(1), "p90", times[90].toFixed(1));
for (let i = 0; i < 5; i++) await renderMarkdown(md);
const w: number[] = [];
for (let i = 0; i < 100; i++) { const t = performance.now(); await renderMarkdown(md); w.push(performance.now() - t); }
w.sort((a, b) => a - b); console.log("worker median", w[50].toFixed(1), "min", w[0].toFixed(1), "p90", w[90].toFixed(1));
await closeRenderer();
