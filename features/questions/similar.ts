import { and, desc, inArray, isNull, ne, sql, type SQL } from "drizzle-orm";
import type { Executor } from "../../server/db/client.ts";
import { questionCategories, questions } from "../../server/db/schema/index.ts";
import type { Viewer } from "../accounts/viewer.ts";
import { readableCircleIds } from "../circles/access.server.ts";
import { questionPath } from "./paths.ts";
import { titleWords } from "./words.ts";
import type { SimilarQuestion } from "./types.ts";

export type { SimilarQuestion } from "./types.ts";

/**
 * Questions sharing words with `q` (see words.ts: Chinese two-character words, English words), in
 * circles the viewer may read (one circle with `circleId`), the most shared words first, then the
 * most answered. The match reads the GIN index on `title_words` (`&&`). The one entry point the
 * search work may replace with a real segmenter.
 */
export async function similarQuestions(
  db: Executor,
  options: {
    q: string;
    circleId?: number;
    /** Search these circles as given, the viewer's access already checked (the remembered question page). */
    circleIds?: number[];
    viewer?: Pick<Viewer, "id"> | null;
    /** Leave this question out (its own page). */
    exceptId?: number;
    /** Questions filed under these categories count as sharing a word (the question page's panel). */
    categoryIds?: number[];
    limit?: number;
  },
): Promise<SimilarQuestion[]> {
  const words = titleWords(options.q);
  const categories = options.categoryIds ?? [];
  if (words.length === 0 && categories.length === 0) return [];
  let circleIds = options.circleIds ?? (await readableCircleIds(db, options.viewer ?? null));
  if (options.circleId !== undefined) circleIds = circleIds.filter((id) => id === options.circleId);
  if (circleIds.length === 0) return [];
  const wordArray = sql`array[${sql.join(
    words.map((word) => sql`${word}`),
    sql`, `,
  )}]::text[]`;
  const shared = sql<number>`cardinality(array(select unnest(${questions.titleWords}) intersect select unnest(${wordArray})))`;
  const inCategory =
    categories.length > 0
      ? sql`exists (select 1 from ${questionCategories} qc where qc.question_id = ${questions.id} and ${inArray(sql`qc.category_id`, categories)})`
      : undefined;
  const matches: SQL[] = [];
  if (words.length > 0) matches.push(sql`${questions.titleWords} && ${wordArray}`);
  if (inCategory) matches.push(inCategory);
  const rows = await db
    .select({ id: questions.id, circleId: questions.circleId, title: questions.title, answerCount: questions.answerCount })
    .from(questions)
    .where(
      and(
        inArray(questions.circleId, circleIds),
        isNull(questions.hiddenAt),
        options.exceptId !== undefined ? ne(questions.id, options.exceptId) : undefined,
        sql`(${sql.join(matches, sql` or `)})`,
      ),
    )
    // Without words, no shared-word key: a bare `order by 0` would name a column position (an error).
    .orderBy(...(words.length > 0 ? [desc(shared)] : []), desc(questions.answerCount), desc(questions.id))
    .limit(Math.min(Math.max(options.limit ?? 10, 1), 10));
  return rows.map((row) => ({ ...row, url: questionPath(row) }));
}
