import { unified } from "unified";
import remarkParse from "remark-parse";
import remarkGfm from "remark-gfm";
import remarkMath from "remark-math";
import remarkRehype from "remark-rehype";
import rehypeRaw from "rehype-raw";
import rehypeSanitize from "rehype-sanitize";
import rehypeStringify from "rehype-stringify";
const cases: Record<string, string> = {
  quotes: ">".repeat(10000) + " deep",
  quotesLines: Array.from({length: 600}, (_, i) => ">".repeat(i+1) + " x").join("\n"),
  lists: Array.from({ length: 400 }, (_, i) => " ".repeat(i * 2) + "- item").join("\n"),
  listsInline: "- ".repeat(10000) + "x",
  divs: "<div>".repeat(10000) + "x" + "</div>".repeat(10000),
  emph: "*a ".repeat(20000) + "b" + " a*".repeat(20000),
  links: "[".repeat(20000) + "x" + "](y)".repeat(20000),
  brackets: "[a](".repeat(20000),
  tables: "|a|b|\n|-|-|\n" + "|x|y|\n".repeat(5000),
  manyfootnotes: Array.from({length: 3000}, (_, i) => `x[^${i}]`).join(" ") + "\n\n" + Array.from({length: 3000}, (_, i) => `[^${i}]: note ${i}`).join("\n"),
};
for (const [name, md] of Object.entries(cases).filter(([n]) => n === process.argv[2])) {
  for (const stage of ["parse", "run", "full"]) {
    const t0 = performance.now();
    try {
      const p = unified().use(remarkParse).use(remarkGfm).use(remarkMath).use(remarkRehype, { allowDangerousHtml: true }).use(rehypeRaw).use(rehypeSanitize).use(rehypeStringify);
      const tree = p.parse(md);
      if (stage !== "parse") { const h = p.runSync(tree); if (stage === "full") p.stringify(h); }
      console.log(name, stage, "ok", Math.round(performance.now() - t0), "ms");
    } catch (e) { console.log(name, stage, "FAIL", String(e).slice(0, 100), Math.round(performance.now() - t0), "ms"); }
  }
}
