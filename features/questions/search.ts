import { and, asc, eq, gt, inArray, isNull } from "drizzle-orm";
import { answers, questions, users } from "../../server/db/schema/index.ts";
import { plainText, reindexOn, type SearchMember } from "../search/registry.ts";
import { answerPath, questionPath } from "./paths.ts";

/** Questions and answers in the search index (an answer is found in its question's circle and language; a hidden question hides its answers). */
export const questionSearch: SearchMember = {
  tabOrder: 4,
  suggested: true,
  inSiteFeeds: true,
  reindex: [reindexOn(["question.asked", "question.edited"])],
  async documents(db, ids) {
    const rows = await db
      .select()
      .from(questions)
      .where(and(inArray(questions.id, ids), isNull(questions.hiddenAt)));
    return rows.map((row) => ({
      type: "question" as const,
      id: row.id,
      circleId: row.circleId,
      parentId: null,
      language: row.language,
      title: row.title,
      path: questionPath(row),
      names: [],
      relatedEntryIds: row.relatedEntryIds,
      body: plainText(row.markdown),
      authorId: row.authorId,
      publishedAt: row.publishedAt,
      hotScore: row.hotScore,
    }));
  },
  async ids(db, afterId, limit) {
    const rows = await db
      .select({ id: questions.id })
      .from(questions)
      .where(gt(questions.id, afterId))
      .orderBy(asc(questions.id))
      .limit(limit);
    return rows.map((row) => row.id);
  },
};

export const answerSearch: SearchMember = {
  tabOrder: 5,
  reindex: [reindexOn(["answer.created", "answer.edited"])],
  parent: "question",
  async documents(db, ids) {
    const rows = await db
      .select({ answer: answers, question: questions, username: users.username })
      .from(answers)
      .innerJoin(questions, eq(questions.id, answers.questionId))
      .innerJoin(users, eq(users.id, answers.authorId))
      .where(and(inArray(answers.id, ids), isNull(answers.hiddenAt), isNull(questions.hiddenAt)));
    return rows.map(({ answer, question, username }) => ({
      type: "answer" as const,
      id: answer.id,
      circleId: question.circleId,
      parentId: question.id,
      language: question.language,
      title: question.title,
      path: answerPath(question, username),
      names: [],
      relatedEntryIds: [],
      body: plainText(answer.markdown),
      authorId: answer.authorId,
      publishedAt: answer.publishedAt,
      hotScore: question.hotScore,
    }));
  },
  async ids(db, afterId, limit) {
    const rows = await db.select({ id: answers.id }).from(answers).where(gt(answers.id, afterId)).orderBy(asc(answers.id)).limit(limit);
    return rows.map((row) => row.id);
  },
};
