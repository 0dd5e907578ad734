import type { Executor } from "../../server/db/client.ts";
import { countInstance } from "../../server/lib/single-instance.ts";
import { codeEnd, codeStart } from "./snippets.ts";

/**
 * The searchable kinds: each registers once, in its own `features/<domain>/search.ts` (loaded by
 * features/registrations.ts), how to read its subjects as search documents, so the index (and a
 * future external engine behind the same interface) never reads a kind's table itself.
 */
countInstance("search/registry");

export const searchTypes = ["writing", "book", "chapter", "question", "answer", "entry", "circle", "user"] as const;
export type SearchType = (typeof searchTypes)[number];

/** A subject as the index sees it (only what may be listed: hidden ones are not returned). */
export interface SearchSource {
  type: SearchType;
  id: number;
  /** The circle whose readers may find it; null for users. */
  circleId: number | null;
  /** A chapter's book, an answer's question. */
  parentId: number | null;
  language: "zh-CN" | "en" | null;
  title: string;
  /** Its page, without the /en prefix. */
  path: string;
  /** Other names it is known by (an entry's aliases, a user's username, a circle's other-language name). */
  names: string[];
  /** Encyclopedia entries it is about: their names and aliases find it too. */
  relatedEntryIds: number[];
  /** Plain text of the body. */
  body: string;
  authorId: number | null;
  publishedAt: Date;
  hotScore: number;
}

export interface SearchKind {
  type: SearchType;
  /** The documents of these ids that may be listed (deleted or hidden ones are left out). */
  documents(db: Executor, ids: number[]): Promise<SearchSource[]>;
  /** What is found only while this subject is (a book's chapters): re-read with it when moderation hides or restores it. */
  children?(db: Executor, id: number): Promise<{ type: SearchType; ids: number[] }>;
  /** Ids after `afterId` in order, at most `limit` (the rebuild pages through them). */
  ids(db: Executor, afterId: number, limit: number): Promise<number[]>;
}

const kinds = new Map<SearchType, SearchKind>();

export function registerSearchKind(kind: SearchKind): void {
  if (kinds.has(kind.type)) throw new Error(`search kind ${kind.type} registered twice`);
  kinds.set(kind.type, kind);
}

export function searchKind(type: SearchType): SearchKind | undefined {
  return kinds.get(type);
}

export function searchKinds(): SearchKind[] {
  return [...kinds.values()];
}

export function isSearchType(value: string): value is SearchType {
  return (searchTypes as readonly string[]).includes(value);
}

/**
 * Markdown or HTML to plain text for the index and snippets: markup, link targets and images go.
 * Fenced code blocks stay searchable but are set apart (`codeStart`…`codeEnd`) so snippets leave
 * them out; formulas stay as written (snippets.ts shows them as a marker).
 */
export function plainText(source: string, limit = 20000): string {
  return source
    .slice(0, limit * 2)
    .replace(
      /^ {0,3}(`{3,}|~{3,})[^\n]*\n([\s\S]*?)(?:^ {0,3}\1[`~]*[ \t]*$|(?![\s\S]))/gm,
      (_, _fence, code: string) => ` ${codeStart}${code}${codeEnd} `,
    )
    .replace(/<pre[\s>][\s\S]*?<\/pre>/gi, (block) => ` ${codeStart}${block}${codeEnd} `)
    .replace(/<\/?[a-zA-Z][^>]*>/g, " ")
    .replace(/!\[[^\]]*\]\([^)]*\)/g, " ")
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/&nbsp;/g, " ")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&")
    .replace(/^\s{0,3}(#{1,6}|>|[-*+]|\d+\.)\s+/gm, "")
    .replace(/[*_~`]{1,3}/g, "")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, limit);
}
