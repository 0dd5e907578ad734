import { and, eq, inArray, isNull, sql, type SQL } from "drizzle-orm";
import type { Executor } from "../../server/db/client.ts";
import { answers, questions, subjectCounts, users } from "../../server/db/schema/index.ts";
import { afterCursor, authoredCandidates, followedNewest, followedUsers } from "../feeds/conditions.ts";
import { inReadableCircles } from "../circles/access.server.ts";
import type { FeedMember, FeedScope } from "../feeds/registry.ts";
import type { FeedCard } from "../feeds/types.ts";
import { answerPath, questionPath } from "./paths.ts";

/*
 * Questions and answers in the home feeds (features/feeds). A question appears when it is asked
 * (Latest, All, Follow) and on Hot by its stored score; an answer when it is published (Latest,
 * All, Follow). Hidden ones (moderation), and answers to hidden questions, stay out.
 */

const author = { id: users.id, username: users.username, nickname: users.nickname, avatar: users.avatar };

/** Index ranges: `questions_time_idx`, `questions_hot_idx`; Follow: `questions_author_idx` per followed asker, `questions_circle_time_idx` per joined circle. */
function questionCandidates(scope: FeedScope): SQL {
  const hot = scope.tab === "hot";
  const where = and(
    inReadableCircles(questions.circleId, scope.circles),
    isNull(questions.hiddenAt),
    afterCursor("question", { time: questions.publishedAt, score: questions.hotScore, id: questions.id }, scope.cursor, hot),
  );
  return authoredCandidates({
    kind: "question",
    table: questions,
    columns: {
      id: questions.id,
      at: questions.publishedAt,
      score: questions.hotScore,
      authorId: questions.authorId,
      circleId: questions.circleId,
    },
    where,
    scope,
  });
}

/**
 * Index range `answers_time_idx` (its question checked by primary key); Follow: the answers of
 * followed users (`answers_author_idx`) and the answers to questions the viewer follows
 * (`answers_question_time_idx`).
 */
function answerCandidates(scope: FeedScope): SQL {
  const after = afterCursor("answer", { time: answers.publishedAt, score: sql`0::float8`, id: answers.id }, scope.cursor, false);
  const listed = and(
    isNull(answers.hiddenAt),
    sql`exists (select 1 from ${questions} where ${questions.id} = ${answers.questionId} and ${inReadableCircles(questions.circleId, scope.circles)} and ${questions.hiddenAt} is null)`,
    after,
  );
  const order = sql`${answers.publishedAt} desc, ${answers.id} desc`;
  if (scope.followerId === null)
    return sql`(select 'answer'::text as kind, ${answers.id} as id, ${answers.publishedAt} as at, 0::float8 as score from ${answers}
      where ${listed} order by ${order} limit ${scope.limit})`;
  const followedQuestions = sql`select question_id from question_follows where user_id = ${scope.followerId}`;
  return followedNewest({
    kind: "answer",
    table: answers,
    columns: sql`${answers.id} as id, ${answers.publishedAt} as at, 0::float8 as score`,
    order,
    where: listed,
    by: [
      { column: answers.authorId, keys: followedUsers(scope.followerId) },
      { column: answers.questionId, keys: followedQuestions },
    ],
    limit: scope.limit,
  });
}

const likesOf = (type: "question" | "answer", id: SQL) =>
  sql<number>`coalesce((select ${subjectCounts.likeCount} from ${subjectCounts} where ${subjectCounts.subjectType} = ${type} and ${subjectCounts.subjectId} = ${id}), 0)`.mapWith(
    Number,
  );
const commentsOf = (type: "question" | "answer", id: SQL) =>
  sql<number>`coalesce((select ${subjectCounts.commentCount} from ${subjectCounts} where ${subjectCounts.subjectType} = ${type} and ${subjectCounts.subjectId} = ${id}), 0)`.mapWith(
    Number,
  );

async function questionCards(db: Executor, ids: number[]): Promise<Map<number, FeedCard>> {
  const rows = await db
    .select({
      question: {
        id: questions.id,
        circleId: questions.circleId,
        title: questions.title,
        excerpt: questions.excerpt,
        language: questions.language,
        views: questions.views,
        publishedAt: questions.publishedAt,
      },
      author,
      likes: likesOf("question", sql`${questions.id}`),
      comments: commentsOf("question", sql`${questions.id}`),
    })
    .from(questions)
    .innerJoin(users, eq(users.id, questions.authorId))
    .where(inArray(questions.id, ids));
  return new Map(
    rows.map(({ question, author, likes, comments }): [number, FeedCard] => [
      question.id,
      {
        key: `question-${question.id}`,
        kind: "question",
        id: question.id,
        label: "question",
        title: question.title,
        path: questionPath(question),
        excerpt: question.excerpt,
        language: question.language,
        coverFileId: null,
        author,
        circleId: question.circleId,
        at: question.publishedAt.toISOString(),
        views: question.views,
        comments,
        likes,
        partNumber: null,
        bookName: null,
        chapterNumber: null,
      },
    ]),
  );
}

async function answerCards(db: Executor, ids: number[]): Promise<Map<number, FeedCard>> {
  const rows = await db
    .select({
      answer: { id: answers.id, excerpt: answers.excerpt, publishedAt: answers.publishedAt },
      question: {
        id: questions.id,
        circleId: questions.circleId,
        title: questions.title,
        language: questions.language,
        views: questions.views,
      },
      author,
      likes: likesOf("answer", sql`${answers.id}`),
      comments: commentsOf("answer", sql`${answers.id}`),
    })
    .from(answers)
    .innerJoin(questions, eq(questions.id, answers.questionId))
    .innerJoin(users, eq(users.id, answers.authorId))
    .where(inArray(answers.id, ids));
  return new Map(
    rows.map(({ answer, question, author, likes, comments }): [number, FeedCard] => [
      answer.id,
      {
        key: `answer-${answer.id}`,
        kind: "answer",
        id: answer.id,
        label: "answer",
        title: question.title,
        path: answerPath(question, author.username),
        excerpt: answer.excerpt,
        language: question.language,
        coverFileId: null,
        author,
        circleId: question.circleId,
        at: answer.publishedAt.toISOString(),
        views: question.views,
        comments,
        likes,
        partNumber: null,
        bookName: null,
        chapterNumber: null,
      },
    ]),
  );
}

/** The `feed` members of the question and answer registrations (subject.ts). */
export const questionFeed: FeedMember = { tabs: ["latest", "hot", "all", "follow"], candidates: questionCandidates, cards: questionCards };
export const answerFeed: FeedMember = { tabs: ["latest", "all", "follow"], candidates: answerCandidates, cards: answerCards };
