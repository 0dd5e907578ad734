import { eq, sql } from "drizzle-orm";
import { answers, questions } from "../../server/db/schema/index.ts";
import type { Executor } from "../../server/db/client.ts";
import { onEvent } from "../events/bus.ts";

/**
 * A question's stored comment count (comments on it and on its answers), raised and lowered in
 * the comment's transaction; the `questions_hot_score` trigger moves its Hot score with it.
 */
onEvent("comment.created", {
  name: "questions.hot_comment_added",
  async inTransaction(tx, event) {
    const questionId = await questionOf(tx.db, event.data.subjectType, event.data.subjectId);
    if (questionId === null) return;
    await tx.db
      .update(questions)
      .set({ commentCount: sql`${questions.commentCount} + 1` })
      .where(eq(questions.id, questionId));
  },
});

onEvent("comment.deleted", {
  name: "questions.hot_comment_removed",
  async inTransaction(tx, event) {
    const questionId = await questionOf(tx.db, event.data.subjectType, event.data.subjectId);
    if (questionId === null) return;
    await tx.db
      .update(questions)
      .set({ commentCount: sql`greatest(${questions.commentCount} - 1, 0)` })
      .where(eq(questions.id, questionId));
  },
});

async function questionOf(db: Executor, type: string, id: number): Promise<number | null> {
  if (type === "question") return id;
  if (type !== "answer") return null;
  const [row] = await db.select({ questionId: answers.questionId }).from(answers).where(eq(answers.id, id)).limit(1);
  return row?.questionId ?? null;
}
