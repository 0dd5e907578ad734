import { sql } from "drizzle-orm";
import type { Database } from "../../server/db/client.ts";
import { questions } from "../../server/db/schema/index.ts";

/** Questions recomputed per transaction (short transactions: answers and views never wait long). */
export const questionHotBatch = 2_000;

/**
 * Recomputes every question's stored Hot score for the instant in `hot_clock` (which the writings'
 * recompute moves first, so both lists compare at the same instant), recounting answers from the
 * table on the way (hidden answers left out, as when they are hidden). Touching `answer_count` fires the `questions_hot_score` trigger. Maintenance
 * runs it after `recomputeHotScores`, at start-up and every hour.
 */
export async function recomputeQuestionHotScores(db: Database, batch = questionHotBatch): Promise<void> {
  const [range] = await db.select({ last: sql<number>`coalesce(max(${questions.id}), 0)`.mapWith(Number) }).from(questions);
  const last = range?.last ?? 0;
  for (let from = 0; from <= last; from += batch) {
    await db.execute(sql`
      update questions q set answer_count = (select count(*)::integer from answers a where a.question_id = q.id and a.hidden_at is null)
      where q.id > ${from} and q.id <= ${from + batch}`);
  }
}
