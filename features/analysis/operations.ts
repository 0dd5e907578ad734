import { z } from "zod";
import { idSchema } from "../../common/id.ts";
import { defineOperation } from "../../server/lib/operation.ts";
import { contentAnalysis, contentFigures } from "./content.ts";
import { contentCsv, profitCsv } from "./csv.ts";
import { profitAnalysis, profitSources } from "./profit.ts";
import { dayParam, resolveRange } from "./range.ts";

/*
 * The creator's analysis (signed in, their own content only): `/api/creator/analysis/content/`
 * and `/profit/` as JSON and as CSV, served by features/analysis/api.ts and read by the
 * /creator/analysis/* pages.
 */

export const rangeQuery = z.object({ from: dayParam, to: dayParam });
export const contentQuery = rangeQuery.extend({
  subject_type: z.string().max(20).optional(),
  subject_id: idSchema.optional(),
});
export type ContentQuery = z.infer<typeof contentQuery>;

const figures = <Keys extends readonly string[]>(keys: Keys) =>
  z.strictObject(Object.fromEntries(keys.map((key) => [key, z.number().int()])) as Record<Keys[number], z.ZodNumber>);

const contentTotals = figures(contentFigures);
export const contentAnalysisSchema = z.strictObject({
  days: z.array(contentTotals.extend({ day: z.string() })),
  totals: contentTotals,
  filtered: z.strictObject({ bots: z.number().int(), repeats: z.number().int() }),
  items: z.array(
    z.strictObject({
      type: z.string(),
      id: z.number(),
      title: z.string(),
      url: z.string(),
      ...figures(["views", "reads", "likes", "favorites", "comments"] as const).shape,
    }),
  ),
});

const profitTotals = figures([...profitSources, "total"] as const);
export const profitAnalysisSchema = z.strictObject({
  days: z.array(profitTotals.extend({ day: z.string() })),
  totals: profitTotals,
  items: z.array(profitTotals.extend({ type: z.string(), id: z.number(), title: z.string(), url: z.string() })),
});

/** The one piece a drill-down asks for: both or neither of `subject_type` and `subject_id`. */
export function drilledSubject(query: ContentQuery): { type: string; id: number } | null {
  return query.subject_type && query.subject_id ? { type: query.subject_type, id: query.subject_id } : null;
}

/** Views, reads, likes, favourites, comments, shares, new followers and filtered views per day and per piece. */
export const contentAnalysisOperation = defineOperation({
  name: "creatorContentAnalysis",
  input: { query: contentQuery },
  viewer: "signed-in",
  run: (services, viewer, { query }) => contentAnalysis(services.db, viewer, resolveRange(query, services.now()), drilledSubject(query)),
  present: (analysis) => analysis,
  response: contentAnalysisSchema,
  failures: ["invalid_range", "not_found"],
});

/** Income per day by source, totals and income per piece, from the ledger (whole sinecoin). */
export const profitAnalysisOperation = defineOperation({
  name: "creatorProfitAnalysis",
  input: { query: rangeQuery },
  viewer: "signed-in",
  run: (services, viewer, { query }) => profitAnalysis(services.db, viewer, resolveRange(query, services.now())),
  present: (analysis) => analysis,
  response: profitAnalysisSchema,
  failures: ["invalid_range"],
});

export const contentCsvOperation = defineOperation({
  ...contentAnalysisOperation,
  name: "creatorContentAnalysisCsv",
  present: (analysis, { locale }) => contentCsv(analysis, locale),
  response: z.string().describe("text/csv"),
});

export const profitCsvOperation = defineOperation({
  ...profitAnalysisOperation,
  name: "creatorProfitAnalysisCsv",
  present: (analysis, { locale }) => profitCsv(analysis, locale),
  response: z.string().describe("text/csv"),
});
