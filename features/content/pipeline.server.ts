import type { Root as HtmlRoot } from "hast";
import type { Root as MarkdownRoot } from "mdast";
import rehypeKatex from "rehype-katex";
import rehypeRaw from "rehype-raw";
import { sanitize, type Schema } from "hast-util-sanitize";
import rehypeSlug from "rehype-slug";
import rehypeStringify from "rehype-stringify";
import remarkGfm from "remark-gfm";
import remarkMath from "remark-math";
import remarkParse from "remark-parse";
import remarkRehype from "remark-rehype";
import rehypeShikiFromHighlighter from "@shikijs/rehype/core";
import { unified, type Processor } from "unified";
import { VFile } from "vfile";
import { addCatalog, translator } from "../../common/i18n.ts";
import type { Locale } from "../../common/locale.ts";
import zhContent from "../../common/locales/zh-CN/content.json" with { type: "json" };
import enContent from "../../common/locales/en/content.json" with { type: "json" };
import { capContainerMarkers, capTreeDepth } from "./nesting.ts";
import { authorSchema, clobberPrefix, outputSchema } from "./sanitize-schema.ts";
import { markLinks, pointFragmentsAtPrefixedIds, restrictImages } from "./links.ts";
import { collectOutline } from "./outline.ts";
import { collectExcerpt } from "./excerpt.ts";
import { refuseOversizedFormulas } from "./formulas.ts";
import type { RenderedContent } from "./schema.ts";
import { countTextLength, estimateReadingMinutes, makeExcerpt } from "./text-stats.ts";
import { codeThemes, getHighlighter, normalizeHighlightedProperties } from "./highlighter.server.ts";

addCatalog("content", { "zh-CN": zhContent, en: enContent });

/**
 * The Markdown → HTML pipeline itself, run in this thread (render.server.ts runs it in a worker
 * with a time limit). Stages, in order:
 *
 * 1. Parse Markdown with GFM and math (`$…$`, `$$…$$`), after capping container markers; cap the
 *    tree's depth.
 * 2. Turn it into HTML, parse the raw HTML the author wrote, cap the depth again.
 * 3. Sanitize what the author wrote (GitHub's rules: no scripts, handlers, styles, frames, forms…;
 *    ids prefixed with `user-content-`).
 * 4. In-page links point at the prefixed ids; headings get ids (Chinese kept); the table of
 *    contents and the plain text are read here, while formulas are still their TeX source.
 * 5. KaTeX renders formulas (no `\href`, `\url`, `\html…`: `trust` is off; expansion and sizes are
 *    bounded; a broken formula becomes an inline error). The excerpt is read from the paragraphs
 *    now, so a formula is its MathML text there, never TeX (excerpt.ts). Shiki highlights code blocks.
 * 6. Images: only our attachments; links: `rel="nofollow ugc noopener"`.
 * 7. Sanitize the whole output again with the schema that allows exactly KaTeX's and Shiki's markup.
 */

export interface PipelineOptions {
  locale: Locale;
  excerptLength: number;
}

const katexOptions = {
  trust: false,
  strict: "ignore",
  throwOnError: false,
  maxExpand: 100,
  maxSize: 20,
  output: "htmlAndMathml",
} as const;

/**
 * A sanitizing step. (rehype-sanitize cannot be used for both passes: unified merges the options
 * of a plugin used twice and runs it once, at its first place.)
 */
function sanitizeWith(schema: Schema) {
  return () => (tree: HtmlRoot) => sanitize(tree, schema) as HtmlRoot;
}

function buildProcessor(locale: Locale, highlighter: Awaited<ReturnType<typeof getHighlighter>>) {
  const t = translator(locale);
  return unified()
    .use(remarkParse)
    .use(remarkGfm)
    .use(remarkMath)
    .use(() => (tree: MarkdownRoot) => capTreeDepth(tree, "markdown"))
    .use(remarkRehype, {
      allowDangerousHtml: true,
      clobberPrefix: "",
      footnoteLabel: t("content:footnotes"),
      footnoteBackLabel: (referenceIndex: number, rereferenceIndex: number) =>
        t("content:footnote_back", { number: referenceIndex + 1 + (rereferenceIndex > 1 ? `-${rereferenceIndex}` : "") }),
    })
    .use(rehypeRaw)
    .use(() => (tree: HtmlRoot) => capTreeDepth(tree, "html"))
    .use(sanitizeWith(authorSchema))
    .use(pointFragmentsAtPrefixedIds)
    .use(rehypeSlug, { prefix: clobberPrefix })
    .use(collectOutline)
    .use(refuseOversizedFormulas, t("content:formula_too_complex"))
    .use(rehypeKatex, katexOptions)
    .use(collectExcerpt, locale)
    .use(rehypeShikiFromHighlighter, highlighter, {
      themes: codeThemes,
      defaultColor: false,
      defaultLanguage: "text",
      fallbackLanguage: "text",
      addLanguageClass: true,
      tokenizeTimeLimit: 500,
    })
    .use(normalizeHighlightedProperties)
    .use(restrictImages)
    .use(markLinks)
    .use(sanitizeWith(outputSchema))
    .use(rehypeStringify);
}

type ContentProcessor = ReturnType<typeof buildProcessor>;
const processors = new Map<Locale, Promise<ContentProcessor>>();

function getProcessor(locale: Locale): Promise<ContentProcessor> {
  let processor = processors.get(locale);
  if (!processor) {
    processor = getHighlighter().then((highlighter) => buildProcessor(locale, highlighter).freeze() as ContentProcessor);
    processors.set(locale, processor);
  }
  return processor;
}

/** Loads the highlighter and builds the pipeline for `locale`, if not done yet. */
export async function prepareRenderer(locale: Locale): Promise<void> {
  await getProcessor(locale);
}

/** Renders in the calling thread, with no time limit: use `renderMarkdown` from render.server.ts. */
export async function renderInThisThread(markdown: string, options: PipelineOptions): Promise<RenderedContent> {
  const processor: Processor<MarkdownRoot, MarkdownRoot, HtmlRoot, HtmlRoot, string> = (await getProcessor(options.locale)) as never;
  const file = new VFile({ value: capContainerMarkers(markdown.replace(/\r\n?/g, "\n")) });
  // Every plugin is synchronous once the highlighter is loaded, so no other render interleaves.
  const html = String(processor.processSync(file));
  const plainText = file.data.plainText ?? "";
  return {
    html,
    toc: file.data.toc ?? [],
    textLength: countTextLength(plainText),
    readingMinutes: estimateReadingMinutes(plainText),
    excerpt: makeExcerpt(file.data.excerptText ?? "", options.excerptLength),
  };
}
