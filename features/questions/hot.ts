import { eq, sql } from "drizzle-orm";
import type { Database } from "../../server/db/client.ts";
import { answers, questions } from "../../server/db/schema/index.ts";
import type { Transaction } from "../../server/lib/transactions.ts";
import type { HotMember } from "../subjects/hot.ts";

/** Questions recomputed per transaction (short transactions: answers and views never wait long). */
export const questionHotBatch = 2_000;

/**
 * Recomputes every question's stored Hot score for the instant in `hot_clock` (which
 * `recomputeHotScores` moves first, so every list compares at the same instant), recounting
 * answers from the table on the way (hidden answers left out, as when they are hidden). Touching
 * `answer_count` fires the `questions_hot_score` trigger.
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

/** Touching the question makes its trigger (migration `questions`) read the new counters of it and its answers. */
async function rescoreQuestion(tx: Transaction, questionId: number): Promise<void> {
  await tx.db
    .update(questions)
    .set({ commentCount: sql`${questions.commentCount}` })
    .where(eq(questions.id, questionId));
}

export const questionHot: HotMember = { rescore: rescoreQuestion, recompute: recomputeQuestionHotScores };

/** An answer has no score of its own: its likes count towards its question's. */
export const answerHot: HotMember = {
  async rescore(tx, id) {
    const [row] = await tx.db.select({ questionId: answers.questionId }).from(answers).where(eq(answers.id, id)).limit(1);
    if (row) await rescoreQuestion(tx, row.questionId);
  },
};
