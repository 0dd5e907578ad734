import { readFileSync, readdirSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { renderInThisThread } from "../features/content/pipeline.server.ts";
import { countTextLength, estimateReadingMinutes, makeExcerpt } from "../features/content/text-stats.ts";

/**
 * Distinct texts for the scale data (scripts/seed-scale.ts): every writing and chapter gets its own
 * body, drawn word by word from real vocabularies with their real frequencies, so posting lists,
 * snippets and ranking behave as they would on a community's text, not on a few repeated bodies.
 *
 * - Chinese words: the jieba dictionary that ships with @node-rs/jieba (349,045 words with corpus
 *   frequencies); the most frequent 40,000 Han-only words, drawn by frequency, which is Zipfian.
 * - English words: counted from this repository's own documentation (`docs/**\/*.md`), drawn by
 *   their counts, so the English share follows a real text's distribution too.
 * - Formulas and code: a pool of snippets rendered once by the real pipeline (KaTeX, Shiki) and
 *   placed into about a sixth (formulas) and an eighth (code) of the bodies.
 * - Lengths: paragraphs log-normally distributed, from a two-line post to a long article.
 * Prose HTML is written directly in the shape the pipeline gives it (headings with the same ids,
 * so tables of contents link); the pool's fragments are the pipeline's own output.
 * Deterministic: the same index gives the same body in every run.
 */

/** mulberry32: a small, fast, seedable generator (uniform in [0, 1)). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Words with their weights, drawn in proportion to them by a binary search over the running totals. */
class Vocabulary {
  private readonly words: string[];
  private readonly cumulative: Float64Array;
  constructor(weighted: [string, number][]) {
    this.words = weighted.map(([word]) => word);
    this.cumulative = new Float64Array(weighted.length);
    let total = 0;
    weighted.forEach(([, weight], index) => {
      total += weight;
      this.cumulative[index] = total;
    });
  }
  get size(): number {
    return this.words.length;
  }
  draw(random: () => number): string {
    const target = random() * this.cumulative[this.cumulative.length - 1]!;
    let low = 0;
    let high = this.cumulative.length - 1;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (this.cumulative[middle]! < target) low = middle + 1;
      else high = middle;
    }
    return this.words[low]!;
  }
}

const han = /^\p{Script=Han}+$/u;

function chineseVocabulary(): Vocabulary {
  const require = createRequire(import.meta.url);
  const dictionary = readFileSync(path.join(path.dirname(require.resolve("@node-rs/jieba/package.json")), "dict.txt"), "utf8");
  const words: [string, number][] = [];
  for (const line of dictionary.split("\n")) {
    const [word, frequency] = line.split(" ");
    if (word && frequency && han.test(word)) words.push([word, Number(frequency)]);
  }
  words.sort((a, b) => b[1] - a[1]);
  return new Vocabulary(words.slice(0, 40_000));
}

function markdownFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? markdownFiles(path.join(directory, entry.name))
      : entry.name.endsWith(".md")
        ? [path.join(directory, entry.name)]
        : [],
  );
}

function englishVocabulary(root: string): Vocabulary {
  const counts = new Map<string, number>();
  for (const file of markdownFiles(path.join(root, "docs"))) {
    for (const match of readFileSync(file, "utf8")
      .toLowerCase()
      .matchAll(/\b[a-z]{2,}\b/g)) {
      counts.set(match[0], (counts.get(match[0]) ?? 0) + 1);
    }
  }
  return new Vocabulary([...counts].sort((a, b) => b[1] - a[1]));
}

interface Fragment {
  markdown: string;
  html: string;
}

const formulaSources = [
  "a^2 + b^2 = c^2",
  "e^{i\\pi} + 1 = 0",
  "\\sum_{n \\ge 1} \\frac{1}{n^2} = \\frac{\\pi^2}{6}",
  "\\int_0^1 x^2 \\, dx = \\frac{1}{3}",
  "\\lim_{x \\to 0} \\frac{\\sin x}{x} = 1",
  "V - E + F = 2",
  "\\binom{n}{k} = \\frac{n!}{k!(n-k)!}",
  "P(A \\mid B) = \\frac{P(B \\mid A) P(A)}{P(B)}",
  "\\nabla \\cdot \\mathbf{E} = \\frac{\\rho}{\\varepsilon_0}",
  "f(x) = \\sum_{k=0}^{\\infty} \\frac{f^{(k)}(0)}{k!} x^k",
  "\\det(A - \\lambda I) = 0",
  "\\operatorname{Var}(X) = E[X^2] - E[X]^2",
];

const codeSources = [
  [
    "ts",
    "export function lowerBound(items: number[], target: number): number {\n  let low = 0;\n  let high = items.length;\n  while (low < high) {\n    const middle = (low + high) >> 1;\n    if (items[middle]! < target) low = middle + 1;\n    else high = middle;\n  }\n  return low;\n}",
  ],
  ["python", "def gcd(a, b):\n    while b:\n        a, b = b, a % b\n    return a\n\nprint(gcd(84, 36))"],
  [
    "sql",
    "select author_id, count(*) as pieces\nfrom writings\nwhere published_at > now() - interval '30 days'\ngroup by author_id\norder by pieces desc\nlimit 10;",
  ],
  ["go", 'package main\n\nimport "fmt"\n\nfunc main() {\n\tfor i := 1; i <= 3; i++ {\n\t\tfmt.Println(i * i)\n\t}\n}'],
  ["rust", "fn fib(n: u64) -> u64 {\n    match n {\n        0 | 1 => n,\n        _ => fib(n - 1) + fib(n - 2),\n    }\n}"],
  ["bash", 'for file in *.md; do\n  wc -w "$file"\ndone | sort -n | tail -5'],
  ["java", 'public class Hello {\n    public static void main(String[] args) {\n        System.out.println("Hello");\n    }\n}'],
  [
    "c",
    '#include <stdio.h>\n\nint main(void) {\n    int sum = 0;\n    for (int i = 1; i <= 100; i++) sum += i;\n    printf("%d\\n", sum);\n    return 0;\n}',
  ],
] as const;

export interface GeneratedBody {
  language: "zh-CN" | "en";
  title: string;
  markdown: string;
  html: string;
  toc: { depth: number; text: string; id: string }[];
  excerpt: string;
  textLength: number;
  readingMinutes: number;
}

export interface TextGenerator {
  /** The body of writing or chapter number `index` (the same every run); `language` forces one. */
  body(index: number, options?: { language?: "zh-CN" | "en"; titlePrefix?: string }): GeneratedBody;
  /** A short comment, distinct per index. */
  comment(index: number): string;
  vocabularySizes: { zh: number; en: number };
}

/** The pipeline's heading ids (rehype-slug with the sanitizer's prefix) for text made of words and digits. */
const headingId = (text: string) => `user-content-${text.toLowerCase().replace(/ /g, "-")}`;

export async function createTextGenerator(root: string): Promise<TextGenerator> {
  const zh = chineseVocabulary();
  const en = englishVocabulary(root);
  // Each fragment rendered once by the real pipeline; its HTML is the pipeline's own.
  const formulas: Fragment[] = [];
  for (const source of formulaSources) {
    const markdown = `$$\n${source}\n$$`;
    formulas.push({ markdown, html: (await renderInThisThread(markdown, { locale: "en", excerptLength: 140 })).html.trim() });
  }
  const code: Fragment[] = [];
  for (const [language, source] of codeSources) {
    const markdown = `\`\`\`${language}\n${source}\n\`\`\``;
    code.push({ markdown, html: (await renderInThisThread(markdown, { locale: "en", excerptLength: 140 })).html.trim() });
  }

  const sentence = (random: () => number, language: "zh-CN" | "en"): string => {
    const length = 4 + Math.floor(random() * random() * 22);
    const words: string[] = [];
    for (let i = 0; i < length; i += 1) {
      // Chinese prose carries an English term now and then, as technical writing does.
      words.push(language === "zh-CN" && random() < 0.03 ? ` ${en.draw(random)} ` : (language === "zh-CN" ? zh : en).draw(random));
    }
    if (language === "zh-CN") return words.join("").replace(/ {2,}/g, " ").trim() + (random() < 0.8 ? "。" : "？");
    const text = words.join(" ");
    return text.charAt(0).toUpperCase() + text.slice(1) + (random() < 0.9 ? "." : "?");
  };

  const heading = (random: () => number, language: "zh-CN" | "en", number: number): string => {
    const words = Array.from({ length: 2 + Math.floor(random() * 3) }, () => (language === "zh-CN" ? zh : en).draw(random));
    return `${words.join(language === "zh-CN" ? "" : " ")} ${number}`;
  };

  return {
    vocabularySizes: { zh: zh.size, en: en.size },
    comment(index) {
      const random = seededRandom(0x9e3779b1 ^ index);
      const language = random() < 0.8 ? "zh-CN" : "en";
      return Array.from({ length: 1 + Math.floor(random() * 3) }, () => sentence(random, language)).join(language === "en" ? " " : "");
    },
    body(index, options = {}) {
      const random = seededRandom(index * 2654435761);
      const language = options.language ?? (random() < 0.8 ? "zh-CN" : "en");
      // Log-normal paragraph counts: median about 4, a long tail of long articles.
      const normal = Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
      const paragraphs = Math.min(80, Math.max(1, Math.round(Math.exp(1.4 + 0.9 * normal))));
      const withFormula = random() < 1 / 6;
      const withCode = random() < 1 / 8;
      const markdown: string[] = [];
      const html: string[] = [];
      const plain: string[] = [];
      const toc: GeneratedBody["toc"] = [];
      for (let p = 0; p < paragraphs; p += 1) {
        if (paragraphs >= 6 && p % 5 === 0) {
          const text = heading(random, language, toc.length + 1);
          const id = headingId(text);
          toc.push({ depth: 2, text, id });
          markdown.push(`## ${text}`);
          html.push(`<h2 id="${id}">${text}</h2>`);
          plain.push(text);
        }
        const sentences = 1 + Math.floor(random() * 5);
        const text = Array.from({ length: sentences }, () => sentence(random, language)).join(language === "en" ? " " : "");
        markdown.push(text);
        html.push(`<p>${text}</p>`);
        plain.push(text);
        if (withFormula && p === Math.floor(paragraphs / 2)) {
          const fragment = formulas[Math.floor(random() * formulas.length)]!;
          markdown.push(fragment.markdown);
          html.push(fragment.html);
          plain.push(language === "en" ? "[formula]" : "[公式]");
        }
        if (withCode && p === paragraphs - 1) {
          const fragment = code[Math.floor(random() * code.length)]!;
          markdown.push(fragment.markdown);
          html.push(fragment.html);
        }
      }
      const titleWords = Array.from({ length: 2 + Math.floor(random() * 4) }, () => (language === "zh-CN" ? zh : en).draw(random));
      const title = `${options.titlePrefix ?? ""}${titleWords.join(language === "zh-CN" ? "" : " ")}`;
      const text = plain.join("\n");
      return {
        language,
        title,
        markdown: markdown.join("\n\n") + "\n",
        html: html.join("\n"),
        toc,
        excerpt: makeExcerpt(plain.filter((line) => !toc.some((entry) => entry.text === line)).join(" "), 140),
        textLength: countTextLength(text),
        readingMinutes: estimateReadingMinutes(text),
      };
    },
  };
}
