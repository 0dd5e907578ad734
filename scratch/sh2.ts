import { renderInThisThread } from "../features/content/pipeline.server.ts";
console.log((await renderInThisThread("```ts\nconst a = 1\n```", { locale: "en", excerptLength: 10 })).html);
