import { eq, sql } from "drizzle-orm";
import type { Executor } from "../../server/db/client.ts";
import { answers, questionFollows } from "../../server/db/schema/index.ts";
import { keyedMemory } from "../../server/lib/keyed-memory.ts";

/** A user's follows and answers, for the question page's follow button and "Edit my answer". */
export interface QuestionState {
  follows: Set<number>;
  /** By question id. */
  answers: Map<number, { id: number; version: number }>;
}

/**
 * Remembered per user: every write of a user's follows or answers (follow, unfollow, answer,
 * edit, deletion, its question's deletion) invalidates `questionStateTag(userId)`.
 */
const states = keyedMemory<QuestionState>("question-state", { ttlMs: 60_000, maxEntries: 10_000 });

export const questionStateTag = (userId: number): string => states.tag(userId);

/** The questions `userId` follows and their answers, one round trip when not remembered. */
export function questionState(db: Executor, userId: number): Promise<QuestionState> {
  return states.read(db, userId, async () => {
    const rows = await db
      .select({
        questionId: questionFollows.questionId,
        answerId: sql<number | null>`null::integer`,
        version: sql<number | null>`null::integer`,
      })
      .from(questionFollows)
      .where(eq(questionFollows.userId, userId))
      .unionAll(
        db
          .select({
            questionId: answers.questionId,
            answerId: sql<number | null>`${answers.id}`,
            version: sql<number | null>`${answers.version}`,
          })
          .from(answers)
          .where(eq(answers.authorId, userId)),
      );
    const state: QuestionState = { follows: new Set(), answers: new Map() };
    for (const row of rows) {
      // A follow's row has no answer.
      if (row.answerId === null || row.version === null) state.follows.add(row.questionId);
      else state.answers.set(row.questionId, { id: row.answerId, version: row.version });
    }
    return state;
  });
}
