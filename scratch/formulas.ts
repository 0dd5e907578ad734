import { renderInThisThread } from "../features/content/pipeline.server.ts";
import katex from "katex";
await renderInThisThread("$x$", { locale: "en", excerptLength: 10 });
for (const n of [100, 500]) {
  const md = "$\\frac{a}{b}$ ".repeat(n);
  let t = performance.now(); await renderInThisThread(md, { locale: "en", excerptLength: 10 }); console.log(n, "formulas pipeline", (performance.now() - t).toFixed(0), "ms");
  t = performance.now(); for (let i = 0; i < n; i++) katex.renderToString("\\frac{a}{b}"); console.log(n, "katex only", (performance.now() - t).toFixed(0), "ms");
}
let t = performance.now(); try { katex.renderToString("{".repeat(5000) + "x" + "}".repeat(5000), { throwOnError: true }); } catch (e) { console.log(String(e).slice(0, 80)); } console.log("deep", (performance.now() - t).toFixed(0));
