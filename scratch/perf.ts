import { renderInThisThread } from "../features/content/pipeline.server.ts";
import { renderMarkdown, closeRenderer } from "../features/content/render.server.ts";
const para = "Markdown 是一种轻量级标记语言，让作者用纯文本写作，再转换成结构化的 HTML。This paragraph mixes English words with Chinese text so that the counter sees both scripts. ";
const md = `# 标题 Title\n\n${para.repeat(4)}\n\n## 公式\n\n质能方程 $E=mc^2$，以及\n\n$$\n\\sum_{i=1}^{n} i = \\frac{n(n+1)}{2}\n$$\n\n## 代码\n\n\`\`\`python\ndef fib(n):\n    a, b = 0, 1\n    for _ in range(n):\n        a, b = b, a + b\n    return a\n\`\`\`\n\n${para.repeat(5)}\n\n- one\n- two\n- [x] three\n`;
console.log("bytes", Buffer.byteLength(md));
await renderInThisThread(md, { locale: "zh-CN", excerptLength: 140 });
const times: number[] = [];
for (let i = 0; i < 50; i++) { const t = performance.now(); await renderInThisThread(md, { locale: "zh-CN", excerptLength: 140 }); times.push(performance.now() - t); }
times.sort((a, b) => a - b); console.log("in-thread median", times[25].toFixed(1), "min", times[0].toFixed(1), "p90", times[45].toFixed(1));
await renderMarkdown(md);
const w: number[] = [];
for (let i = 0; i < 30; i++) { const t = performance.now(); await renderMarkdown(md); w.push(performance.now() - t); }
w.sort((a, b) => a - b); console.log("worker median", w[15].toFixed(1), "min", w[0].toFixed(1));
await closeRenderer();
