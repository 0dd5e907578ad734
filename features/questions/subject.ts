import { eq, inArray, sql } from "drizzle-orm";
import { answers, questionCategories, questions } from "../../server/db/schema/index.ts";
import { commentsTag, contentTag, countsTag } from "../../server/lib/cache-tags.ts";
import type { CircleAccess } from "../circles/policy.ts";
import { registerSubject, type LoadedSubject } from "../subjects/registry.ts";
import { answerPath, questionPath } from "./paths.ts";
import { loadReadableAnswer, loadReadableQuestion, type QuestionRow } from "./service.ts";

/** A question as a subject (its page builds it from what it already loaded). */
export function questionSubject(row: Pick<QuestionRow, "id" | "authorId" | "title" | "circleId">, access: CircleAccess): LoadedSubject {
  return {
    type: "question",
    id: row.id,
    authorId: row.authorId,
    access,
    title: row.title,
    path: questionPath(row),
    tags: {
      content: [contentTag("question", row.id)],
      counts: [countsTag("question", row.id)],
      comments: [commentsTag("question", row.id)],
    },
  };
}

/** An answer as a subject: its question's page shows it, so the question's tags go with its own. */
export function answerSubject(
  answer: { id: number; authorId: number; username: string },
  question: Pick<QuestionRow, "id" | "title" | "circleId">,
  access: CircleAccess,
): LoadedSubject {
  return {
    type: "answer",
    id: answer.id,
    authorId: answer.authorId,
    access,
    title: question.title,
    path: answerPath(question, answer.username),
    tags: {
      content: [contentTag("answer", answer.id), contentTag("question", question.id)],
      counts: [countsTag("answer", answer.id), countsTag("question", question.id)],
      comments: [commentsTag("answer", answer.id), commentsTag("question", question.id)],
    },
  };
}

registerSubject({
  commentable: true,
  type: "question",
  async load(db, viewer, id) {
    const { row, access } = await loadReadableQuestion(db, viewer, id);
    return questionSubject(row, access);
  },
  async countCircleContent(db, circleIds) {
    const rows = await db
      .select({ circleId: questions.circleId, count: sql<number>`count(*)`.mapWith(Number) })
      .from(questions)
      .where(inArray(questions.circleId, circleIds))
      .groupBy(questions.circleId);
    return new Map(rows.map((row) => [row.circleId, { questions: row.count }]));
  },
  async usesCategory(db, categoryId) {
    const [filed] = await db
      .select({ id: questionCategories.questionId })
      .from(questionCategories)
      .where(eq(questionCategories.categoryId, categoryId))
      .limit(1);
    return filed !== undefined;
  },
  async children(tx, ids) {
    const rows = await tx.db.select({ id: answers.id }).from(answers).where(inArray(answers.questionId, ids));
    return [{ type: "answer", ids: rows.map((row) => row.id) }];
  },
});

registerSubject({
  commentable: true,
  type: "answer",
  async load(db, viewer, id) {
    const { row, question, access, author } = await loadReadableAnswer(db, viewer, id);
    return answerSubject({ id: row.id, authorId: row.authorId, username: author.username }, question, access);
  },
});
