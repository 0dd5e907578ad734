import { sql, type SQL } from "drizzle-orm";
import type { Executor } from "../../server/db/client.ts";
import type { Locale } from "../../common/locale.ts";
import type { Viewer } from "../accounts/viewer.ts";
import { circlesWhere, inReadableCircles, loadCircleAccessMap, type ReadableCircles } from "../circles/access.server.ts";
import { canReadCircleContent, canViewCircle } from "../circles/policy.ts";
import { localizedTexts } from "../circles/presenter.ts";
import { circleRows } from "../circles/tree.server.ts";
import {
  candidatesSql,
  choosePlan,
  documentCount,
  estimateMatches,
  bodyCandidates,
  maxOffset,
  rareComplete,
  rememberedEstimate,
  type CandidateQuery,
} from "./candidates.ts";
import { loadDictionary } from "./indexer.ts";
import { cleanQuery, prepareQuery, suggestionQuery } from "./query.ts";
import { snippet } from "./snippets.ts";
import { foldText, quoteLexeme, segment } from "./text.ts";
import { searchTypesSql, type SearchType } from "./registry.ts";

/**
 * Searching the PostgreSQL index (features/search/indexer.ts): words through the same text module
 * as the index, entry aliases as synonyms, trigram matches on names and titles, visibility from
 * the viewer's circles on every query. One interface (`search`, `suggest`, `indexSubjects`,
 * `removeSubjects`) so an external engine can take its place.
 */

export const searchSorts = ["relevance", "newest"] as const;
export type SearchSort = (typeof searchSorts)[number];

export interface SearchOptions {
  query: string;
  type?: SearchType | "all";
  circleId?: number | null;
  language?: "zh-CN" | "en" | null;
  sort?: SearchSort;
  cursor?: string | null;
  limit?: number;
  locale: Locale;
}

export interface SearchResult {
  type: SearchType;
  id: number;
  title: string;
  /** HTML: escaped text with the matched words in `<mark>`. */
  snippet: string;
  /** Without the /en prefix. */
  url: string;
  circle: { id: number; name: string } | null;
  author: { id: number; username: string; nickname: string } | null;
  publishedAt: string;
}

export interface SearchPage {
  results: SearchResult[];
  nextCursor: string | null;
  totalEstimate: number;
  /** A near title (by trigram) when nothing matched. */
  didYouMean: string | null;
}

export interface Suggestion {
  type: SearchType;
  id: number;
  title: string;
  url: string;
}

const empty: SearchPage = { results: [], nextCursor: null, totalEstimate: 0, didYouMean: null };

function parseCursor(cursor: string | null | undefined): number {
  const match = cursor ? /^o(\d{1,4})$/.exec(cursor) : null;
  return match ? Math.min(Number(match[1]), maxOffset) : 0;
}

function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

interface Visibility {
  /** The circles whose content the viewer may read, and those they may see listed (each the shorter list). */
  readable: ReadableCircles;
  visible: ReadableCircles;
  names: Map<number, string>;
}

async function visibility(db: Executor, viewer: Viewer | null, locale: Locale): Promise<Visibility> {
  const [accessMap, rows] = await Promise.all([loadCircleAccessMap(db, viewer), circleRows(db)]);
  return {
    readable: circlesWhere(accessMap, canReadCircleContent),
    visible: circlesWhere(accessMap, canViewCircle),
    names: new Map(rows.map((row) => [row.id, localizedTexts(row, locale).name])),
  };
}

/**
 * Nobody finds what they may not read: content of readable circles, circles they may see, users
 * not hidden. Each circle list is the shorter one (usually the few circles the viewer may not
 * read), so the condition on every candidate row stays cheap.
 */
function visibleTo(seen: Visibility): SQL {
  return sql`(case d.type when 'user' then true when 'circle' then ${inReadableCircles(sql`d.id`, seen.visible)} else ${inReadableCircles(sql`d.circle_id`, seen.readable)} end)`;
}

async function synonymSets(db: Executor, query: string): Promise<string[][]> {
  const keys = [...new Set([query, ...segment(query).coarse])].filter(Boolean).slice(0, 13);
  if (keys.length === 0) return [];
  const result = await db.execute<{ synonyms: string[] }>(sql`
    select synonyms from search_documents
    where type = 'entry' and synonyms && ${`{${keys.map((key) => `"${key.replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"`).join(",")}}`}::text[]
    limit 20`);
  return (result as unknown as { rows: { synonyms: string[] }[] }).rows.map((row) => row.synonyms);
}

type Row = {
  type: SearchType;
  id: number;
  title: string;
  path: string;
  body: string;
  circle_id: number | null;
  author_id: number | null;
  username: string | null;
  nickname: string | null;
  published_at: Date | string;
  total: number | string;
  body_candidates: number | string;
  matched: number | string | null;
};

const cjkOnly = /^\p{Script=Han}+$/u;

/**
 * Names and titles containing the folded query: trigrams from three characters; one or two Chinese
 * characters through the single characters every name is indexed with (weight A), then the substring.
 */
function nameCondition(folded: string): SQL | null {
  if (folded.length >= 3) return sql`d.names like ${likePattern(folded)}`;
  if (!cjkOnly.test(folded)) return null;
  const characters = [...new Set(folded)].map((character) => quoteLexeme(character) + ":A").join(" & ");
  return sql`(ts_filter(d.terms, '{a,b}') @@ ${characters}::tsquery and d.names like ${likePattern(folded)})`;
}

/** One page of results for the viewer. Any text is a valid query: it gives results or none, never an error. */
export async function search(db: Executor, viewer: Viewer | null, options: SearchOptions): Promise<SearchPage> {
  const cleaned = cleanQuery(options.query);
  if (!cleaned) return empty;
  await loadDictionary(db);
  const folded = foldText(cleaned).trim();
  const prepared = prepareQuery(cleaned, await synonymSets(db, folded));
  const seen = await visibility(db, viewer, options.locale);
  const limit = Math.min(Math.max(options.limit ?? 20, 1), 50);
  const offset = parseCursor(options.cursor);
  const tsquery = prepared.tsquery ? sql`${prepared.tsquery}::tsquery` : null;
  const byName = folded.length > 0 ? nameCondition(folded) : null;
  if (!tsquery && !byName) return { ...empty, didYouMean: offset === 0 ? await nearTitle(db, folded, seen) : null };
  const nameLike = folded.length > 0 ? sql`d.names like ${likePattern(folded)}` : sql`false`;
  const filters: SQL[] = [visibleTo(seen)];
  if (options.type && options.type !== "all") filters.push(sql`d.type = ${options.type}`);
  if (options.circleId) filters.push(sql`d.circle_id = ${options.circleId}`);
  if (options.language) filters.push(sql`(d.language = ${options.language} or d.language is null)`);
  const titleMatch = sql.join(
    [tsquery ? sql`ts_filter(d.terms, '{a,b}') @@ ${tsquery}` : null, byName].filter((part): part is SQL => part !== null),
    sql` or `,
  );
  const anyMatch = sql.join(
    [tsquery ? sql`d.terms @@ ${tsquery}` : null, byName].filter((part): part is SQL => part !== null),
    sql` or `,
  );
  const rank = tsquery ? sql`ts_rank('{0.1, 0.2, 0.4, 1.0}', d.terms, ${tsquery})` : sql`0::real`;
  const age = sql`greatest(extract(epoch from (now() - d.published_at))::float8 / 86400.0, 0)`;
  // Relevance: text rank (titles and names weigh most), a bonus when a name contains or is the
  // query, the Hot score, and recency (a tenth for today, fading over months).
  const order =
    options.sort === "newest"
      ? sql`d.published_at desc, d.type, d.id desc`
      : sql`(${rank} + case when ${nameLike} then 0.5 else 0 end + case when d.names = ${folded} then 1 else 0 end
          + 0.05 * ln(1 + greatest(d.hot_score, 0)) + 0.1 / (1 + ${age} / 30)) desc, d.published_at desc, d.type, d.id desc`;
  const query: CandidateQuery = { titleMatch, anyMatch, filters, sort: options.sort === "newest" ? "newest" : "relevance" };
  const planKey = JSON.stringify(["plan", prepared.tsquery, folded]);
  const [estimate, documents] = await Promise.all([
    rememberedEstimate(planKey, () => estimateMatches(db, anyMatch)),
    rememberedEstimate("documents", () => documentCount(db)),
  ]);
  let plan = choosePlan(estimate, documents);
  let rows = await pageRows(db, candidatesSql(query, plan), order, limit, offset);
  // More matches than the estimate said: the bounded plan answers instead.
  if (plan === "rare" && rows.length > 0 && !rareComplete(Number(rows[0]!.matched))) {
    plan = "common";
    rows = await pageRows(db, candidatesSql(query, plan), order, limit, offset);
  }
  const more = rows.length > limit && offset + limit < maxOffset;
  const page = rows.slice(0, limit);
  const candidatesFound = page.length > 0 ? Number(page[0]!.total) : offset;
  // A word with more matches than were read: the planner's estimate of all its visible matches.
  const exact = plan === "rare" && page.length > 0 ? Number(page[0]!.matched) : null;
  const saturated =
    exact === null && page.length > 0 && Number(page[0]!.body_candidates) >= (options.sort === "newest" ? maxOffset : bodyCandidates);
  return {
    results: page.map((row) => presentRow(row, prepared.marks, seen, options.locale)),
    nextCursor: more ? `o${offset + limit}` : null,
    totalEstimate: saturated
      ? Math.max(
          candidatesFound,
          await rememberedEstimate(
            JSON.stringify([folded, options.type ?? "all", options.circleId ?? 0, options.language ?? "", viewer?.id ?? 0]),
            () => estimateMatches(db, sql.join([sql`(${anyMatch})`, ...filters], sql` and `)),
          ),
        )
      : Math.max(candidatesFound, exact ?? 0),
    didYouMean: page.length === 0 && offset === 0 ? await nearTitle(db, folded, seen) : null,
  };
}

/** One page of the ranked candidates, with the page's authors and the counts the totals need. */
async function pageRows(db: Executor, candidates: SQL, order: SQL, limit: number, offset: number): Promise<Row[]> {
  const result = await db.execute<Row>(sql`
    with candidates as (${candidates}),
    unique_candidates as (
      select type, id from candidates group by type, id
    ), page as (
      select d.type, d.id, d.title, d.path, d.body, d.circle_id, d.author_id, d.published_at,
        count(*) over () as total,
        (select count(*) from candidates where body = 1) as body_candidates,
        (select max(matched) from candidates) as matched,
        row_number() over (order by ${order}) as position
      from unique_candidates c
      join search_documents d on d.type = c.type and d.id = c.id
      order by position
      limit ${limit + 1} offset ${offset}
    )
    select p.*, u.username, u.nickname from page p left join users u on u.id = p.author_id
    order by p.position`);
  return (result as unknown as { rows: Row[] }).rows;
}

function presentRow(row: Row, marks: string[], seen: Visibility, locale: Locale): SearchResult {
  const circleId = row.type === "circle" ? row.id : row.circle_id;
  const body = row.body || row.title;
  return {
    type: row.type,
    id: Number(row.id),
    title: row.type === "circle" && circleId ? (seen.names.get(circleId) ?? row.title) : row.title,
    snippet: snippet(body, marks, locale),
    url: row.path,
    circle: circleId ? { id: circleId, name: seen.names.get(circleId) ?? "" } : null,
    author:
      row.type !== "circle" && row.author_id && row.username
        ? { id: Number(row.author_id), username: row.username, nickname: row.nickname ?? row.username }
        : null,
    publishedAt: new Date(row.published_at).toISOString(),
  };
}

/** "Did you mean": the visible title nearest to the query by trigram word similarity. */
async function nearTitle(db: Executor, folded: string, seen: Visibility): Promise<string | null> {
  if (folded.length < 3 || folded.length > 60) return null;
  const result = await db.execute<{ title: string }>(sql`
    select d.title from search_documents d
    where ${folded} <% d.names and ${visibleTo(seen)}
    order by word_similarity(${folded}, d.names) desc, d.hot_score desc
    limit 1`);
  const title = (result as unknown as { rows: { title: string }[] }).rows[0]?.title ?? null;
  return title && foldText(title) !== folded ? title : null;
}

/** Up to 8 titles, entry names, circles and users starting like the query (pinyin and initials too). */
export async function suggest(db: Executor, viewer: Viewer | null, query: string, locale: Locale): Promise<Suggestion[]> {
  const cleaned = cleanQuery(query).slice(0, 50);
  if (!cleaned) return [];
  await loadDictionary(db);
  const tsquery = suggestionQuery(cleaned);
  if (!tsquery) return [];
  const folded = foldText(cleaned).trim();
  const seen = await visibility(db, viewer, locale);
  const result = await db.execute<{ type: SearchType; id: number; title: string; path: string }>(sql`
    select d.type, d.id, d.title, d.path from search_documents d
    where d.type in (${searchTypesSql("suggested")})
      and d.terms @@ ${tsquery}::tsquery and ${visibleTo(seen)}
    order by (case when d.names like ${`${folded.replace(/[\\%_]/g, (character) => `\\${character}`)}%`} then 1 else 0 end) desc,
      ts_rank('{0.1, 0.2, 0.4, 1.0}', d.terms, ${tsquery}::tsquery) desc, d.hot_score desc, d.id desc
    limit 8`);
  return (result as unknown as { rows: { type: SearchType; id: number; title: string; path: string }[] }).rows.map((row) => ({
    type: row.type,
    id: Number(row.id),
    title: row.type === "circle" ? (seen.names.get(Number(row.id)) ?? row.title) : row.title,
    url: row.path,
  }));
}

export { indexSubjects, removeSubjects } from "./indexer.ts";

/** The circles a search may be narrowed to: those whose content the viewer may read, by name. */
export async function searchableCircles(db: Executor, viewer: Viewer | null, locale: Locale): Promise<{ id: number; name: string }[]> {
  const [seen, accessMap] = await Promise.all([visibility(db, viewer, locale), loadCircleAccessMap(db, viewer)]);
  return [...accessMap.values()]
    .filter(canReadCircleContent)
    .map(({ circle: { id } }) => ({ id, name: seen.names.get(id) ?? String(id) }))
    .sort((a, b) => a.name.localeCompare(b.name, locale))
    .slice(0, 500);
}
