import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { answers, questionCategories, questions } from "../../server/db/schema/index.ts";
import { circlesTag, commentsTag, contentTag, countsTag } from "../../server/lib/cache-tags.ts";
import type { CircleAccess } from "../circles/policy.ts";
import { registerSubject, type LoadedSubject } from "../subjects/registry.ts";
import { answerPath, questionPath } from "./paths.ts";
import {
  answerTags,
  loadReadableAnswer,
  loadReadableQuestion,
  questionTags,
  removeAnswer,
  removeQuestion,
  type QuestionRow,
} from "./service.ts";
import { answerFeed, questionFeed } from "./feed.ts";
import { answerSearch, questionSearch } from "./search.ts";
import { viewsColumn } from "../metrics/views.ts";
import { questionSitemap } from "./sitemap.ts";
import { answerHot, questionHot } from "./hot.ts";
import { questionCircleTabs } from "./circle-tab.ts";

/** A question as a subject (its page builds it from what it already loaded). */
export function questionSubject(
  row: Pick<QuestionRow, "id" | "authorId" | "title" | "circleId"> & Partial<Pick<QuestionRow, "editedAt" | "hiddenAt">>,
  access: CircleAccess,
): LoadedSubject {
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
    editedAt: row.editedAt ?? null,
    hiddenAt: row.hiddenAt ?? null,
  };
}

/** An answer as a subject: its question's page shows it, so the question's tags go with its own. */
export function answerSubject(
  answer: { id: number; authorId: number; username: string; editedAt?: Date | null; hiddenAt?: Date | null },
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
    editedAt: answer.editedAt ?? null,
    hiddenAt: answer.hiddenAt ?? null,
  };
}

registerSubject({
  commentable: true,
  type: "question",
  circleTabs: questionCircleTabs,
  citesEntries: true,
  authorSql: (id) => `SELECT author_id FROM questions WHERE id = ${id}`,
  interactions: { reactions: true, favorites: true, shares: true, reports: true },
  views: viewsColumn(questions, questions.id, questions.views),
  sitemap: questionSitemap,
  hot: questionHot,
  authoredBy: (authorId) => sql`select q.id, q.title from questions q where q.author_id = ${authorId}`,
  feed: questionFeed,
  search: questionSearch,
  async load(db, viewer, id) {
    const { row, access } = await loadReadableQuestion(db, viewer, id);
    return questionSubject(row, access);
  },
  circleContent: {
    counts: ["questions"],
    async count(db, circleIds) {
      const rows = await db
        .select({ circleId: questions.circleId, count: sql<number>`count(*)`.mapWith(Number) })
        .from(questions)
        .where(and(inArray(questions.circleId, circleIds), isNull(questions.hiddenAt)))
        .groupBy(questions.circleId);
      return new Map(rows.map((row) => [row.circleId, { questions: row.count }]));
    },
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
  async setHidden(tx, id, hiddenAt) {
    const [row] = await tx.db.update(questions).set({ hiddenAt }).where(eq(questions.id, id)).returning();
    return row ? [...questionTags(row), countsTag("question", id)] : [];
  },
  async remove(tx, id, actorId) {
    const [row] = await tx.db.select().from(questions).where(eq(questions.id, id)).limit(1);
    if (row) await removeQuestion(tx, row, actorId);
  },
});

registerSubject({
  commentable: true,
  type: "answer",
  citesEntries: true,
  authorSql: (id) => `SELECT author_id FROM answers WHERE id = ${id}`,
  hot: answerHot,
  authoredBy: (authorId) =>
    sql`select a.id, q.title from answers a join questions q on q.id = a.question_id where a.author_id = ${authorId}`,
  feed: answerFeed,
  interactions: { reactions: true, favorites: true, shares: true, reports: true, tips: true },
  search: answerSearch,
  async load(db, viewer, id) {
    const { row, question, access, author } = await loadReadableAnswer(db, viewer, id);
    return answerSubject({ ...row, username: author.username }, question, access);
  },
  /** A hidden answer leaves its question's answer count; shown again, it comes back. */
  async setHidden(tx, id, hiddenAt) {
    const [before] = await tx.db.select().from(answers).where(eq(answers.id, id)).for("update").limit(1);
    if (!before) return [];
    await tx.db.update(answers).set({ hiddenAt }).where(eq(answers.id, id));
    if ((before.hiddenAt === null) !== (hiddenAt === null)) {
      const change = hiddenAt === null ? sql`${questions.answerCount} + 1` : sql`greatest(${questions.answerCount} - 1, 0)`;
      await tx.db.update(questions).set({ answerCount: change }).where(eq(questions.id, before.questionId));
    }
    const [question] = await tx.db.select().from(questions).where(eq(questions.id, before.questionId)).limit(1);
    return question ? [...answerTags(question, before.authorId, id), circlesTag] : [];
  },
  async remove(tx, id, actorId) {
    const [found] = await tx.db
      .select({ row: answers, question: questions })
      .from(answers)
      .innerJoin(questions, eq(questions.id, answers.questionId))
      .where(eq(answers.id, id))
      .limit(1);
    if (found) await removeAnswer(tx, found.row, found.question, actorId);
  },
});
