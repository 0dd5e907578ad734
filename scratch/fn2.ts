import { renderInThisThread } from "../features/content/pipeline.server.ts";
console.log((await renderInThisThread("a[^1]\n\n[^1]: note", { locale: "en", excerptLength: 100 })).html);
