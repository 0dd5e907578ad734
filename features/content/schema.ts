import { z } from "zod";

/**
 * Limits and shapes of user-written Markdown, shared by the browser (editors) and the server
 * (API and page schemas). Sizes are UTF-8 bytes, the unit the request body limit also uses:
 * 200 KiB hold about 68,000 Chinese characters or 200,000 Latin ones.
 */
export const markdownLimits = {
  /** Articles, chapters, posts, questions, answers and encyclopedia entries. */
  document: 200 * 1024,
  /** Comments and replies. */
  comment: 10 * 1024,
} as const;

export type MarkdownKind = keyof typeof markdownLimits;

/** UTF-8 length without allocating an encoded copy. */
export function utf8ByteLength(text: string): number {
  let bytes = 0;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && index + 1 < text.length) {
      const next = text.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        index += 1;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}

/** A Markdown body: not blank, and within the size of its kind. */
/** A 200 KiB Markdown body is up to 1.2 MB as JSON (escapes); the global 64 KiB limit is for small forms. API routes taking a document use this. */
export const documentBodyLimit = 1536 * 1024;

export function markdownSchema(kind: MarkdownKind = "document") {
  return z
    .string({ error: "validation:content_required" })
    .refine((text) => text.trim().length > 0, "validation:content_required")
    .refine((text) => utf8ByteLength(text) <= markdownLimits[kind], `validation:content_too_long_${kind}`);
}

/** One heading of a rendered document; `id` is the anchor in its HTML (link to `#${id}`). */
export interface TocItem {
  depth: 1 | 2 | 3 | 4 | 5 | 6;
  text: string;
  id: string;
}

/** What rendering a document produces; store all of it with the Markdown source. */
export interface RenderedContent {
  /** Sanitized HTML, safe to serve as it is. */
  html: string;
  toc: TocItem[];
  /** Code points of the visible text, whitespace excluded (see text-stats.ts). */
  textLength: number;
  readingMinutes: number;
  /** Plain text from the document's paragraphs, at most `excerptLength` characters plus "…". */
  excerpt: string;
}

export const tocItemSchema = z.object({
  depth: z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4), z.literal(5), z.literal(6)]),
  text: z.string(),
  id: z.string(),
});
