import { sql, type SQL } from "drizzle-orm";
import type { Executor } from "../../server/db/client.ts";

/**
 * Which matches a search ranks (features/search/service.ts), by one of two plans chosen from the
 * planner's remembered estimate of the query's matches:
 *
 * - **Rare**: every match through the GIN indexes first (`terms`, the title terms, the trigram
 *   names), kept in a materialized CTE so PostgreSQL cannot turn it back into a walk of the
 *   `rank_score` index, then the best by `rank_score`. A word in one document costs one lookup,
 *   and the count of visible matches is exact. At most `rareCap` matches are read; a query that
 *   has more (the estimate was wrong) is asked again by the common plan.
 * - **Common**: each branch in `rank_score` order with `LIMIT`, which stops after its bound when
 *   matches are frequent (a word in a sixth of all bodies reads a few hundred rows). The same plan
 *   walks every row when the matches are few, which is why rare words never take it.
 */

export const titleCandidates = 100;
export const bodyCandidates = 100;
export const maxOffset = titleCandidates + bodyCandidates;

/**
 * The plan's thresholds. A query takes the rare plan when its estimate is at most `rareMatches`
 * or at most `rareShare` of all documents (the ordered walk would read over 100 / share rows
 * for its 100 candidates); tests set `rareMatches` to -1 to run the common plan on small data.
 */
export const searchPlan = { rareMatches: 2_000, rareShare: 0.04, rareCap: 5_000 };

export interface CandidateQuery {
  /** Matches by title, names and their pinyin (the "names first" branch). */
  titleMatch: SQL;
  /** Matches anywhere, body included. */
  anyMatch: SQL;
  /** Visibility, type, circle and language. */
  filters: SQL[];
  sort: "relevance" | "newest";
}

/**
 * The candidates as one SQL query of `(type, id, body, matched)`: `body` 0 for the title branch,
 * 1 for the anywhere branch; `matched` the number of visible matches on the rare plan (null on the
 * common plan, where it is unknown).
 */
export function candidatesSql(query: CandidateQuery, plan: "rare" | "common"): SQL {
  const where = (match: SQL) => sql.join([sql`(${match})`, ...query.filters], sql` and `);
  if (plan === "common") {
    return query.sort === "newest"
      ? sql`select d.type, d.id, 1 as body, null::bigint as matched from search_documents d where ${where(query.anyMatch)}
          order by d.published_at desc, d.type, d.id desc limit ${maxOffset}`
      : sql`(select d.type, d.id, 0 as body, null::bigint as matched from search_documents d where ${where(query.titleMatch)}
            order by d.rank_score desc limit ${titleCandidates})
          union all
          (select d.type, d.id, 1 as body, null::bigint as matched from search_documents d where ${where(query.anyMatch)}
            order by d.rank_score desc limit ${bodyCandidates})`;
  }
  const cap = searchPlan.rareCap + 1;
  const anyMatches = sql`any_matches as materialized (
      select d.type, d.id, d.rank_score, d.published_at from search_documents d where ${where(query.anyMatch)} limit ${cap})`;
  const matched = sql`(select count(*) from any_matches)`;
  if (query.sort === "newest") {
    return sql`with ${anyMatches}
      select type, id, 1 as body, ${matched} as matched from any_matches
      order by published_at desc, type, id desc limit ${maxOffset}`;
  }
  return sql`with ${anyMatches},
    title_matches as materialized (
      select d.type, d.id, d.rank_score from search_documents d where ${where(query.titleMatch)} limit ${cap})
    (select type, id, 0 as body, ${matched} as matched from title_matches order by rank_score desc limit ${titleCandidates})
    union all
    (select type, id, 1 as body, ${matched} as matched from any_matches order by rank_score desc limit ${bodyCandidates})`;
}

/** Whether the rare plan read every match (false: it stopped at its cap, the common plan answers). */
export function rareComplete(matched: number | null): boolean {
  return matched !== null && matched <= searchPlan.rareCap;
}

/** The plan for a query from the estimate of its matches (before visibility) and the documents in all. */
export function choosePlan(estimate: number, documents: number): "rare" | "common" {
  return estimate <= searchPlan.rareMatches || estimate <= documents * searchPlan.rareShare ? "rare" : "common";
}

/**
 * Estimates, remembered for a minute by key: the plan of a word (per folded query) and the total
 * of a common word (per query, filters and viewer). The words that need one are the ones searched
 * again and again, and planning the estimate costs as much as reading a page's candidates.
 */
const estimates = new Map<string, { value: Promise<number>; until: number }>();
const estimateMs = 60_000;
const estimatesKept = 2_000;

export function rememberedEstimate(key: string, estimate: () => Promise<number>): Promise<number> {
  const now = Date.now();
  const known = estimates.get(key);
  if (known && known.until > now) return known.value;
  if (estimates.size >= estimatesKept) estimates.clear();
  const value = estimate();
  estimates.set(key, { value, until: now + estimateMs });
  return value;
}

/** The planner's estimate of how many rows a condition matches (from the column statistics; no rows are read); 0 if unknown. */
export async function estimateMatches(db: Executor, condition: SQL): Promise<number> {
  try {
    const result = await db.execute(sql`explain (format json) select 1 from search_documents d where ${condition}`);
    const first = (result as unknown as { rows: Record<string, unknown>[] }).rows[0];
    const plan = first ? Object.values(first)[0] : null;
    const parsed = (typeof plan === "string" ? JSON.parse(plan) : plan) as [{ Plan?: { "Plan Rows"?: number } }] | null;
    const rows = parsed?.[0]?.Plan?.["Plan Rows"];
    return typeof rows === "number" && Number.isFinite(rows) ? Math.round(rows) : 0;
  } catch {
    // Only an estimate: the rare plan (and its cap) or the count of candidates stands.
    return 0;
  }
}

/** The planner's count of documents (0 before the table was first analysed). */
export async function documentCount(db: Executor): Promise<number> {
  const result = await db.execute<{ count: number | string }>(
    sql`select greatest(reltuples, 0)::float8 as count from pg_class where oid = 'search_documents'::regclass`,
  );
  return Number((result as unknown as { rows: { count: number | string }[] }).rows[0]?.count ?? 0);
}
