import { renderInThisThread } from "../features/content/pipeline.server.ts";
await renderInThisThread("$x$", { locale: "en", excerptLength: 10 });
const md = "$\\frac{a}{b}$ ".repeat(500);
const t = performance.now(); await renderInThisThread(md, { locale: "en", excerptLength: 10 }); console.log((performance.now() - t).toFixed(0));
