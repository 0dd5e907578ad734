import { z } from "zod";
import { localizePath } from "../../common/locale.ts";
import { defineOperation } from "../../server/lib/operation.ts";
import { subjectTypes } from "../subjects/types.ts";
import { isSearchType, type SearchType } from "./registry.ts";
import { search, searchSorts, suggest, type SearchPage, type Suggestion } from "./service.ts";
import { parseRankingCursor, rankingPage, type RankingPage } from "./ranking.ts";
import { rankingKinds, rankingPeriods } from "./schema.ts";
import type { Locale } from "../../common/locale.ts";

/** Any text is a query: what is not understood is ignored (a bad type or cursor is the default), never an error. */
export const searchQuerySchema = z.object({
  q: z.string().optional().catch(undefined),
  type: z
    .string()
    .refine((type) => type === "all" || isSearchType(type))
    .transform((type) => type as "all" | SearchType)
    .optional()
    .catch(undefined),
  circle_id: z.coerce.number().int().positive().max(2147483647).optional().catch(undefined),
  language: z.enum(["zh-CN", "en"]).optional().catch(undefined),
  sort: z.enum(searchSorts).optional().catch(undefined),
  cursor: z.string().optional().catch(undefined),
});

const searchResultSchema = z.strictObject({
  type: z.enum(subjectTypes),
  id: z.number(),
  title: z.string(),
  snippet: z.string(),
  url: z.string(),
  circle: z.strictObject({ id: z.number(), name: z.string() }).nullable(),
  author: z.strictObject({ id: z.number(), username: z.string(), nickname: z.string() }).nullable(),
  published_at: z.string(),
});

export const searchPageSchema = z.strictObject({
  results: z.array(searchResultSchema),
  next_cursor: z.string().nullable(),
  total_estimate: z.number(),
  did_you_mean: z.string().nullable(),
});

export function presentSearchPage(page: SearchPage, locale: Locale): z.infer<typeof searchPageSchema> {
  return {
    results: page.results.map((result) => ({
      type: result.type,
      id: result.id,
      title: result.title,
      snippet: result.snippet,
      url: localizePath(result.url, locale),
      circle: result.circle,
      author: result.author,
      published_at: result.publishedAt,
    })),
    next_cursor: page.nextCursor,
    total_estimate: page.totalEstimate,
    did_you_mean: page.didYouMean,
  };
}

/** Full-text search over every kind the viewer may read. */
export const searchOperation = defineOperation({
  name: "search",
  lagging: true,
  input: { query: searchQuerySchema },
  viewer: "optional",
  run: (services, viewer, { query }) =>
    search(services.db, viewer, {
      query: query.q ?? "",
      type: query.type ?? "all",
      circleId: query.circle_id ?? null,
      language: query.language ?? null,
      sort: query.sort ?? "relevance",
      cursor: query.cursor ?? null,
      locale: services.locale,
    }),
  present: (page, { locale }) => presentSearchPage(page, locale),
  response: searchPageSchema,
  failures: [],
  unexpected: "search_failed",
});

export const suggestionsSchema = z.strictObject({
  suggestions: z.array(z.strictObject({ type: z.enum(subjectTypes), id: z.number(), title: z.string(), url: z.string() })),
});

export function presentSuggestions(suggestions: Suggestion[], locale: Locale): z.infer<typeof suggestionsSchema> {
  return { suggestions: suggestions.map((item) => ({ ...item, url: localizePath(item.url, locale) })) };
}

/** Up to 8 titles, entry names, circles and users as one types (pinyin and initials work). */
export const suggestOperation = defineOperation({
  name: "searchSuggestions",
  lagging: true,
  input: { query: z.object({ q: z.string().optional().catch(undefined) }) },
  viewer: "optional",
  run: (services, viewer, { query }) => suggest(services.db, viewer, query.q ?? "", services.locale),
  present: (suggestions, { locale }) => presentSuggestions(suggestions, locale),
  response: suggestionsSchema,
  failures: [],
  unexpected: "search_failed",
});

/**
 * The ranking lists (`/ranking` and `GET /api/ranking/`): `type` is the page's tab (articles,
 * questions, entries, books, creators), `period` its day, week or month, `circle_id` one circle's
 * list; anything not understood is the default (the week's articles site-wide, the first page).
 */
export const rankingQuerySchema = z.object({
  type: z.enum(rankingKinds).optional().catch(undefined),
  period: z.enum(rankingPeriods).optional().catch(undefined),
  circle_id: z.coerce.number().int().positive().max(2147483647).optional().catch(undefined),
  cursor: z.string().optional().catch(undefined),
});

const rankingItemSchema = z.strictObject({
  rank: z.number().int(),
  /** Places gained since the previous period (negative: lost), null when not ranked then. */
  change: z.number().int().nullable(),
  type: z.enum(rankingKinds),
  id: z.number(),
  title: z.string(),
  url: z.string(),
  /** A writing's version in the other language, when the item is the reader's (a writing's versions are one item). */
  other_url: z.string().nullable(),
  circle_id: z.number().nullable(),
  author: z.strictObject({ username: z.string(), nickname: z.string() }).nullable(),
  score: z.number(),
  likes: z.number().int().nullable(),
  followers: z.number().int().nullable(),
});

export const rankingAnswerSchema = z.strictObject({
  type: z.enum(rankingKinds),
  period: z.enum(rankingPeriods),
  circle_id: z.number().nullable(),
  items: z.array(rankingItemSchema),
  next_cursor: z.string().nullable(),
});

export type RankingResult = RankingPage & {
  type: (typeof rankingKinds)[number];
  period: (typeof rankingPeriods)[number];
  circleId: number | null;
};

export function presentRanking(result: RankingResult, locale: Locale): z.infer<typeof rankingAnswerSchema> {
  return {
    type: result.type,
    period: result.period,
    circle_id: result.circleId,
    items: result.rows.map((row) => ({
      rank: row.rank,
      change: row.change,
      type: result.type,
      id: row.id,
      title: row.title,
      url: localizePath(row.url, locale),
      other_url: row.otherUrl ? localizePath(row.otherUrl, locale) : null,
      circle_id: row.circleId,
      author: row.author,
      score: row.score,
      likes: row.likes ?? null,
      followers: row.followers ?? null,
    })),
    next_cursor: result.nextOffset === null ? null : `o${result.nextOffset}`,
  };
}

/** One page of a ranking list, only what the viewer may read (the page `/ranking` runs the same). */
export const rankingOperation = defineOperation({
  name: "ranking",
  lagging: true,
  input: { query: rankingQuerySchema },
  viewer: "optional",
  run: async (services, viewer, { query }): Promise<RankingResult> => {
    const type = query.type ?? "writing";
    const period = query.period ?? "week";
    const circleId = query.circle_id ?? null;
    const page = await rankingPage(services.db, viewer, {
      kind: type,
      period,
      circleId,
      offset: parseRankingCursor(query.cursor),
      now: services.now(),
      locale: services.locale,
    });
    return { ...page, type, period, circleId };
  },
  present: (result, { locale }) => presentRanking(result, locale),
  response: rankingAnswerSchema,
  failures: [],
  unexpected: "ranking_failed",
});
