import { sql, type SQL } from "drizzle-orm";
import type { Executor } from "../../server/db/client.ts";
import { countInstance } from "../../server/lib/single-instance.ts";
import type { DomainEvent, EventVerb } from "../events/catalogue.ts";
import { isSubjectType, type SubjectType } from "../subjects/types.ts";
import { kindsWith, subjectKind } from "../subjects/registry.ts";
import { codeEnd, codeStart } from "./snippets.ts";

/**
 * The search index's view of the subject registry: each searchable kind declares, as the `search`
 * member of its subject registration (written in its own `features/<domain>/search.ts`), how to
 * read its subjects as search documents and which events change them, so the index (and a future
 * external engine behind the same interface) never reads a kind's table itself nor lists kinds.
 */
countInstance("search/registry");

/** A searchable kind's name: a subject type whose registration declares `search`. */
export type SearchType = SubjectType;

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

/** Events after which one subject is re-read into the index, and which subject (default: the event's). */
export interface Reindex {
  verbs: readonly EventVerb[];
  subjectId(event: { subjectId: number; data: unknown }): number;
}

/** Re-index the subject of these events, or the one `subjectId` names (a chapter of `book.chapter_added`). */
export function reindexOn<Verb extends EventVerb>(verbs: Verb[], subjectId?: (event: DomainEvent<Verb>) => number): Reindex {
  return { verbs, subjectId: (subjectId as Reindex["subjectId"] | undefined) ?? ((event) => event.subjectId) };
}

/** A kind's `search` member. */
export interface SearchMember {
  /** The documents of these ids that may be listed (deleted or hidden ones are left out). */
  documents(db: Executor, ids: number[]): Promise<SearchSource[]>;
  /** What is found only while this subject is (a book's chapters): re-read with it when moderation hides or restores it. */
  children?(db: Executor, id: number): Promise<{ type: SearchType; ids: number[] }>;
  /** Ids after `afterId` in order, at most `limit` (the rebuild pages through them). */
  ids(db: Executor, afterId: number, limit: number): Promise<number[]>;
  /** The events that change its document. */
  reindex: Reindex[];
  /** Its documents' `parentId` is a subject of this kind, and they leave the index with it (a chapter's book). */
  parent?: SearchType;
  /** Its names (title and other names) teach the segmenter whole words: indexed first on a rebuild (circles, entries). */
  teachesWords?: boolean;
  /** Its place among the search page's tabs (after "all", lowest first); the tab's label is `kinds:search.<type>`. */
  tabOrder: number;
  /** The search box's suggestions offer its titles (the answers' and chapters' parents stand for them). */
  suggested?: boolean;
  /** Its items appear in the site's RSS/Atom feeds (features/search/feeds.ts). */
  inSiteFeeds?: boolean;
}

export interface SearchKind extends SearchMember {
  type: SearchType;
}

export function searchKind(type: SearchType): SearchKind | undefined {
  const search = subjectKind(type).search;
  return search ? { type, ...search } : undefined;
}

/** Every searchable kind, those whose names teach the segmenter first, then in registration order. */
export function searchKinds(): SearchKind[] {
  const all = kindsWith("search").map((kind): SearchKind => ({ type: kind.type, ...kind.search }));
  return [...all.filter((kind) => kind.teachesWords), ...all.filter((kind) => !kind.teachesWords)];
}

/** The searchable kinds in the order of their search page tabs. */
export function searchTabTypes(): SearchType[] {
  return kindsWith("search")
    .sort((a, b) => a.search.tabOrder - b.search.tabOrder)
    .map((kind) => kind.type);
}

/** The kinds a search member flag picks (`suggested`, `inSiteFeeds`), as a SQL list of string literals for `d.type in (…)`. */
export function searchTypesSql(flag: "suggested" | "inSiteFeeds"): SQL {
  const types = kindsWith("search")
    .filter((kind) => kind.search[flag] === true)
    .map((kind) => kind.type);
  if (types.length === 0) throw new Error(`no search kind declares ${flag}`);
  return sql.join(
    types.map((type) => sql`${type}`),
    sql`, `,
  );
}

export function isSearchType(value: string): value is SearchType {
  return isSubjectType(value) && subjectKind(value).search !== undefined;
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
