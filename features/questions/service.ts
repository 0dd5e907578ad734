import { failedEdit } from "../content/edit-conflict.ts";
import { and, asc, desc, eq, inArray, isNull, ne, sql, type SQL } from "drizzle-orm";
import type { Executor } from "../../server/db/client.ts";
import {
  answers,
  circleCategories,
  questionCategories,
  questionFollows,
  questions,
  subjectCounts,
  users,
} from "../../server/db/schema/index.ts";
import { AppError } from "../../common/app-error.ts";
import { authorize } from "../../common/policy.ts";
import { countInstance } from "../../server/lib/single-instance.ts";
import { inTransaction, type ServiceOptions, type Transaction } from "../../server/lib/transactions.ts";
import { circleTag, circlesTag, contentTag, countsTag, homeTag, sitemapTag, userTag } from "../../server/lib/cache-tags.ts";
import type { Viewer } from "../accounts/viewer.ts";
import { loadCircleAccess, readableCircleIds } from "../circles/access.server.ts";
import { canViewCircle, type CircleAccess } from "../circles/policy.ts";
import { renderMarkdown } from "../content/render.server.ts";
import { readableContentAccess } from "../content/readable.ts";
import { checkCircleCategories } from "../circles/categories.ts";
import type { RenderedContent } from "../content/schema.ts";
import { checkRelatedEntries } from "../encyclopedia/service.ts";
import { emit } from "../events/bus.ts";
import { assertNotHidden } from "../reports/visibility.ts";
import { deleteSubjectDependents } from "../subjects/registry.ts";
import { answerPath, questionPath } from "./paths.ts";
import { can, canAskIn, canOnAnswer } from "./policy.ts";
import type { AnswerInput, AnswerSort, AskQuestionInput, QuestionTab, UpdateAnswerInput, UpdateQuestionInput } from "./schema.ts";
import { titleWords } from "./words.ts";
import { questionStateTag } from "./viewer-state.ts";
import type { AnswerItem, PersonCard, QuestionListItem } from "./types.ts";

export type { AnswerItem, PersonCard, QuestionListItem } from "./types.ts";

export type QuestionRow = typeof questions.$inferSelect;
export type AnswerRow = typeof answers.$inferSelect;

const personColumns = { id: users.id, username: users.username, nickname: users.nickname, avatar: users.avatar };

/** Pages that show a question: its own, its circle's lists, its asker's profile, home, the sitemap. */
export function questionTags(row: Pick<QuestionRow, "id" | "circleId" | "authorId">): string[] {
  return [contentTag("question", row.id), circleTag(row.circleId), userTag(row.authorId), circlesTag, homeTag, sitemapTag];
}

/** What an answer's write drops: its question's page and lists, its author's profile, its own counts. */
export function answerTags(question: Pick<QuestionRow, "id" | "circleId">, authorId: number, answerId: number): string[] {
  return [
    contentTag("question", question.id),
    contentTag("answer", answerId),
    countsTag("question", question.id),
    circleTag(question.circleId),
    userTag(authorId),
    homeTag,
  ];
}

/**
 * A question with the viewer's access to its circle, or `not_found` when it does not exist or the
 * viewer may not read it; a visitor who may see the circle but not read it gets 401 (like writings).
 */
export async function loadReadableQuestion(
  db: Executor,
  viewer: Viewer | null,
  id: number,
): Promise<{ row: QuestionRow; access: CircleAccess }> {
  const [row] = await db.select().from(questions).where(eq(questions.id, id)).limit(1);
  if (!row) throw new AppError("not_found");
  return { row, access: await readableQuestionAccess(db, viewer, row) };
}

/** The viewer's access to a question's circle, when the viewer may read the question. */
export function readableQuestionAccess(
  db: Executor,
  viewer: Viewer | null,
  row: Pick<QuestionRow, "circleId" | "authorId" | "hiddenAt">,
): Promise<CircleAccess> {
  return readableContentAccess(db, viewer, row, (access) => can(viewer, "read", { question: row, access }));
}

/** An answer with its question and the viewer's access, or `not_found` like its question. */
export async function loadReadableAnswer(
  db: Executor,
  viewer: Viewer | null,
  id: number,
): Promise<{ row: AnswerRow; question: QuestionRow; access: CircleAccess; author: PersonCard }> {
  const [found] = await db
    .select({ row: answers, question: questions, author: personColumns })
    .from(answers)
    .innerJoin(questions, eq(questions.id, answers.questionId))
    .innerJoin(users, eq(users.id, answers.authorId))
    .where(eq(answers.id, id))
    .limit(1);
  if (!found) throw new AppError("not_found");
  const access = await readableQuestionAccess(db, viewer, found.question);
  await assertNotHidden(db, viewer, { hiddenAt: found.row.hiddenAt, authorId: found.row.authorId, circleId: found.question.circleId });
  return { ...found, access };
}

const emptyRendering = { html: "", excerpt: "", textLength: 0 };

function renderedColumns(rendered: RenderedContent | null) {
  if (!rendered) return emptyRendering;
  return { html: rendered.html, excerpt: rendered.excerpt, textLength: rendered.textLength };
}

/** A question's description may be empty: nothing to render then. */
async function renderDescription(markdown: string, locale: "zh-CN" | "en"): Promise<RenderedContent | null> {
  return markdown.trim() === "" ? null : renderMarkdown(markdown, { locale });
}

/** Asks a question in a circle (the circles policy's `write`); the Markdown is rendered before the transaction. */
export async function askQuestion(
  options: ServiceOptions,
  viewer: Viewer,
  circleId: number,
  input: AskQuestionInput,
): Promise<{ id: number; url: string }> {
  const access = await loadCircleAccess(options.db, viewer, circleId);
  if (!access || !canViewCircle(access)) throw new AppError("not_found");
  authorize(viewer, canAskIn(viewer, access));
  const rendered = await renderDescription(input.content, input.language);
  return inTransaction(options, async (tx) => {
    const categories = await checkCircleCategories(tx.db, circleId, input.categories);
    const related = (await checkRelatedEntries(tx.db, viewer, input.related_entries)) ?? [];
    const [row] = await tx.db
      .insert(questions)
      .values({
        circleId,
        authorId: viewer.id,
        language: input.language,
        title: input.title,
        titleWords: titleWords(input.title),
        markdown: input.content,
        ...renderedColumns(rendered),
        relatedEntryIds: related,
      })
      .returning();
    const question = row!;
    if (categories.length > 0)
      await tx.db.insert(questionCategories).values(categories.map((categoryId) => ({ questionId: question.id, categoryId })));
    await emit(tx, { actorId: viewer.id, verb: "question.asked", subjectId: question.id, data: { circleId, language: input.language } });
    tx.invalidate(...questionTags(question));
    return { id: question.id, url: questionPath(question) };
  });
}

/** Edits a question (its asker). A stale `version` answers 409 `edit_conflict` with the current one. */
export async function updateQuestion(
  options: ServiceOptions,
  viewer: Viewer,
  id: number,
  input: UpdateQuestionInput,
): Promise<QuestionRow> {
  const { row: before, access } = await loadReadableQuestion(options.db, viewer, id);
  authorize(viewer, can(viewer, "edit", { question: before, access }));
  const language = input.language ?? before.language;
  const rendered = input.content === undefined ? undefined : await renderDescription(input.content, language);
  return inTransaction(options, async (tx) => {
    const categories = input.categories === undefined ? undefined : await checkCircleCategories(tx.db, before.circleId, input.categories);
    const related = await checkRelatedEntries(tx.db, viewer, input.related_entries);
    const [row] = await tx.db
      .update(questions)
      .set({
        ...(input.title !== undefined ? { title: input.title, titleWords: titleWords(input.title) } : {}),
        ...(input.content !== undefined ? { markdown: input.content, ...renderedColumns(rendered ?? null) } : {}),
        ...(input.language !== undefined ? { language: input.language } : {}),
        ...(related !== undefined ? { relatedEntryIds: related } : {}),
        version: sql`${questions.version} + 1`,
        editedAt: sql`now()`,
      })
      .where(and(eq(questions.id, id), eq(questions.version, input.version)))
      .returning();
    if (!row) throw await failedEdit(tx.db.select().from(questions).where(eq(questions.id, id)).limit(1));
    if (categories) {
      await tx.db.delete(questionCategories).where(eq(questionCategories.questionId, id));
      if (categories.length > 0)
        await tx.db.insert(questionCategories).values(categories.map((categoryId) => ({ questionId: id, categoryId })));
    }
    await emit(tx, { actorId: viewer.id, verb: "question.edited", subjectId: id, data: { version: row.version } });
    tx.invalidate(...questionTags(row));
    return row;
  });
}

/**
 * Deletes a question for good (its asker or the circle's moderators) with its answers, and what
 * hangs on both (comments, reactions, favourites, counters), in one transaction.
 */
export async function deleteQuestion(options: ServiceOptions, viewer: Viewer, id: number): Promise<{ circleId: number }> {
  const { row, access } = await loadReadableQuestion(options.db, viewer, id);
  authorize(viewer, can(viewer, "delete", { question: row, access }));
  return inTransaction(options, async (tx) => {
    await removeQuestion(tx, row, viewer.id);
    return { circleId: row.circleId };
  });
}

/** The deletion itself: `deleteQuestion` after its checks, and moderation decisions (the registry's `remove`). */
export async function removeQuestion(tx: Transaction, row: QuestionRow, actorId: number): Promise<void> {
  const id = row.id;
  const answerRows = await tx.db.select({ id: answers.id, authorId: answers.authorId }).from(answers).where(eq(answers.questionId, id));
  // The answers (the registration's children) and what hangs on them go first, then the rows.
  await deleteSubjectDependents(tx, "question", [id]);
  await tx.db.update(questions).set({ acceptedAnswerId: null }).where(eq(questions.id, id));
  await tx.db.delete(answers).where(eq(answers.questionId, id));
  await tx.db.delete(questions).where(eq(questions.id, id));
  await emit(tx, {
    actorId,
    verb: "question.deleted",
    subjectId: id,
    data: { circleId: row.circleId, authorId: row.authorId, title: row.title, answers: answerRows.length },
  });
  tx.invalidate(
    ...questionTags(row),
    ...answerRows.flatMap((answer) => [userTag(answer.authorId), contentTag("answer", answer.id), questionStateTag(answer.authorId)]),
  );
}

/** The viewer's answer to a question, if any. */
export async function ownAnswer(db: Executor, viewerId: number, questionId: number): Promise<{ id: number; version: number } | null> {
  const [row] = await db
    .select({ id: answers.id, version: answers.version })
    .from(answers)
    .where(and(eq(answers.questionId, questionId), eq(answers.authorId, viewerId)))
    .limit(1);
  return row ?? null;
}

function alreadyAnswered(question: Pick<QuestionRow, "id" | "circleId">, viewer: Viewer, answerId: number): AppError {
  return new AppError("already_answered", { details: { answer_id: answerId, url: answerPath(question, viewer.username) } });
}

/**
 * Answers a question: one answer per user per question. The unique index decides between
 * simultaneous submits (the insert does nothing on conflict, so only one lands); a second attempt
 * answers 409 `already_answered` with the existing answer's URL. The asker and the question's
 * followers are told (`answer.created`).
 */
export async function answerQuestion(
  options: ServiceOptions,
  viewer: Viewer,
  questionId: number,
  input: AnswerInput,
): Promise<{ id: number; url: string }> {
  const { row: question, access } = await loadReadableQuestion(options.db, viewer, questionId);
  authorize(viewer, can(viewer, "answer", { question, access }));
  // A user's submits to one question take turns in this process: the second sees the first's
  // answer and is told so (409), instead of queueing another render (429 when many).
  return oneAtATime(`${questionId}:${viewer.id}`, async () => {
    const existing = await ownAnswer(options.db, viewer.id, questionId);
    if (existing) throw alreadyAnswered(question, viewer, existing.id);
    const rendered = await renderMarkdown(input.content, { locale: question.language });
    return inTransaction(options, async (tx) => {
      const [row] = await tx.db
        .insert(answers)
        .values({ questionId, authorId: viewer.id, markdown: input.content, ...renderedColumns(rendered) })
        .onConflictDoNothing({ target: [answers.questionId, answers.authorId] })
        .returning({ id: answers.id });
      if (!row) {
        const other = await ownAnswer(tx.db, viewer.id, questionId);
        throw alreadyAnswered(question, viewer, other?.id ?? 0);
      }
      await tx.db
        .update(questions)
        .set({ answerCount: sql`${questions.answerCount} + 1` })
        .where(eq(questions.id, questionId));
      const followers = await tx.db
        .select({ id: questionFollows.userId })
        .from(questionFollows)
        .where(eq(questionFollows.questionId, questionId));
      await emit(tx, {
        actorId: viewer.id,
        verb: "answer.created",
        subjectId: row.id,
        data: { questionId, circleId: question.circleId },
        recipientIds: [question.authorId, ...followers.map((follower) => follower.id)],
      });
      tx.invalidate(...answerTags(question, viewer.id, row.id), circlesTag, questionStateTag(viewer.id));
      return { id: row.id, url: answerPath(question, viewer.username) };
    });
  });
}

countInstance("questions/answering");
const answering = new Map<string, Promise<unknown>>();

/** Runs `work` after every earlier call with the same key has settled (in this process). */
async function oneAtATime<T>(key: string, work: () => Promise<T>): Promise<T> {
  const previous = answering.get(key) ?? Promise.resolve();
  const run = previous.then(work, work);
  const settled = run.then(
    () => undefined,
    () => undefined,
  );
  answering.set(key, settled);
  try {
    return await run;
  } finally {
    if (answering.get(key) === settled) answering.delete(key);
  }
}

/** Edits an answer (its author). A stale `version` answers 409 `edit_conflict` with the current one. */
export async function updateAnswer(options: ServiceOptions, viewer: Viewer, id: number, input: UpdateAnswerInput): Promise<AnswerRow> {
  const { row: before, question, access } = await loadReadableAnswer(options.db, viewer, id);
  authorize(viewer, canOnAnswer(viewer, "edit", { question, access, answer: before }));
  const rendered = await renderMarkdown(input.content, { locale: question.language });
  return inTransaction(options, async (tx) => {
    const [row] = await tx.db
      .update(answers)
      .set({ markdown: input.content, ...renderedColumns(rendered), version: sql`${answers.version} + 1`, editedAt: sql`now()` })
      .where(and(eq(answers.id, id), eq(answers.version, input.version)))
      .returning();
    if (!row) throw await failedEdit(tx.db.select().from(answers).where(eq(answers.id, id)).limit(1));
    await emit(tx, { actorId: viewer.id, verb: "answer.edited", subjectId: id, data: { questionId: question.id, version: row.version } });
    tx.invalidate(...answerTags(question, before.authorId, id), questionStateTag(before.authorId));
    return row;
  });
}

/** Deletes an answer for good (its author or the circle's moderators); an accepted answer stops being accepted. */
export async function deleteAnswer(options: ServiceOptions, viewer: Viewer, id: number): Promise<{ questionId: number; circleId: number }> {
  const { row, question, access } = await loadReadableAnswer(options.db, viewer, id);
  authorize(viewer, canOnAnswer(viewer, "delete", { question, access, answer: row }));
  return inTransaction(options, async (tx) => {
    await removeAnswer(tx, row, question, viewer.id);
    return { questionId: question.id, circleId: question.circleId };
  });
}

/** The deletion itself: `deleteAnswer` after its checks, and moderation decisions (the registry's `remove`). */
export async function removeAnswer(
  tx: Transaction,
  row: Pick<AnswerRow, "id" | "authorId" | "hiddenAt">,
  question: Pick<QuestionRow, "id" | "circleId">,
  actorId: number,
): Promise<void> {
  const id = row.id;
  await deleteSubjectDependents(tx, "answer", [id]);
  await tx.db
    .update(questions)
    .set({
      // A hidden answer was already out of the count.
      ...(row.hiddenAt ? {} : { answerCount: sql`greatest(${questions.answerCount} - 1, 0)` }),
      acceptedAnswerId: sql`nullif(${questions.acceptedAnswerId}, ${id})`,
    })
    .where(eq(questions.id, question.id));
  await tx.db.delete(answers).where(eq(answers.id, id));
  await emit(tx, { actorId, verb: "answer.deleted", subjectId: id, data: { questionId: question.id, authorId: row.authorId } });
  tx.invalidate(...answerTags(question, row.authorId, id), circlesTag, questionStateTag(row.authorId));
}

/**
 * The asker accepts one answer of their question (or another instead); the answerer is told
 * (`answer.accepted`). Null withdraws the choice.
 */
export async function setAcceptedAnswer(
  options: ServiceOptions,
  viewer: Viewer,
  questionId: number,
  answerId: number | null,
): Promise<{ acceptedAnswerId: number | null }> {
  const { row: question, access } = await loadReadableQuestion(options.db, viewer, questionId);
  authorize(viewer, can(viewer, "accept", { question, access }));
  return inTransaction(options, async (tx) => {
    let answerer: number | null = null;
    if (answerId !== null) {
      const [answer] = await tx.db
        .select({ id: answers.id, authorId: answers.authorId })
        .from(answers)
        .where(and(eq(answers.id, answerId), eq(answers.questionId, questionId)))
        .limit(1);
      if (!answer) throw new AppError("validation_failed", { fields: { answer_id: "validation:answer_not_of_question" } });
      answerer = answer.authorId;
    }
    const [before] = await tx.db
      .select({ accepted: questions.acceptedAnswerId })
      .from(questions)
      .where(eq(questions.id, questionId))
      .for("update")
      .limit(1);
    const previous = before?.accepted ?? null;
    if (previous === answerId) return { acceptedAnswerId: answerId };
    await tx.db.update(questions).set({ acceptedAnswerId: answerId }).where(eq(questions.id, questionId));
    if (previous !== null) await emit(tx, { actorId: viewer.id, verb: "answer.unaccepted", subjectId: previous, data: { questionId } });
    if (answerId !== null)
      await emit(tx, {
        actorId: viewer.id,
        verb: "answer.accepted",
        subjectId: answerId,
        data: { questionId },
        recipientIds: answerer === null ? [] : [answerer],
      });
    tx.invalidate(contentTag("question", questionId), circleTag(question.circleId), homeTag);
    return { acceptedAnswerId: answerId };
  });
}

/** Follows (or stops following) a question: followers are told of its new answers. */
export async function setQuestionFollow(
  options: ServiceOptions,
  viewer: Viewer,
  questionId: number,
  follow: boolean,
): Promise<{ following: boolean }> {
  const { row, access } = await loadReadableQuestion(options.db, viewer, questionId);
  authorize(viewer, can(viewer, "follow", { question: row, access }));
  return inTransaction(options, async (tx) => {
    if (follow) {
      const added = await tx.db
        .insert(questionFollows)
        .values({ questionId, userId: viewer.id })
        .onConflictDoNothing()
        .returning({ id: questionFollows.questionId });
      if (added.length > 0) await emit(tx, { actorId: viewer.id, verb: "question.followed", subjectId: questionId, data: {} });
    } else {
      const removed = await tx.db
        .delete(questionFollows)
        .where(and(eq(questionFollows.questionId, questionId), eq(questionFollows.userId, viewer.id)))
        .returning({ id: questionFollows.questionId });
      if (removed.length > 0) await emit(tx, { actorId: viewer.id, verb: "question.unfollowed", subjectId: questionId, data: {} });
    }
    tx.invalidate(questionStateTag(viewer.id));
    return { following: follow };
  });
}

export async function isFollowingQuestion(db: Executor, viewerId: number, questionId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: questionFollows.questionId })
    .from(questionFollows)
    .where(and(eq(questionFollows.questionId, questionId), eq(questionFollows.userId, viewerId)))
    .limit(1);
  return row !== undefined;
}

/** The categories of these questions, by question id, in the circle's order. */
export async function categoriesOfQuestions(db: Executor, ids: number[]): Promise<Map<number, { id: number; name: string }[]>> {
  const map = new Map<number, { id: number; name: string }[]>();
  if (ids.length === 0) return map;
  const rows = await db
    .select({ questionId: questionCategories.questionId, id: circleCategories.id, name: circleCategories.name })
    .from(questionCategories)
    .innerJoin(circleCategories, eq(circleCategories.id, questionCategories.categoryId))
    .where(inArray(questionCategories.questionId, ids))
    .orderBy(asc(circleCategories.position), asc(circleCategories.id));
  for (const row of rows) map.set(row.questionId, [...(map.get(row.questionId) ?? []), { id: row.id, name: row.name }]);
  return map;
}

export async function personCard(db: Executor, id: number): Promise<PersonCard | null> {
  const [row] = await db.select(personColumns).from(users).where(eq(users.id, id)).limit(1);
  return row ?? null;
}

const likeCount = sql<number>`coalesce(${subjectCounts.likeCount}, 0)`.mapWith(Number);
const commentCount = sql<number>`coalesce(${subjectCounts.commentCount}, 0)`.mapWith(Number);

function answerSelection() {
  return {
    id: answers.id,
    questionId: answers.questionId,
    html: answers.html,
    excerpt: answers.excerpt,
    textLength: answers.textLength,
    version: answers.version,
    publishedAt: answers.publishedAt,
    editedAt: answers.editedAt,
    likeCount,
    commentCount,
    author: personColumns,
  };
}

type AnswerSelected = {
  id: number;
  questionId: number;
  html: string;
  excerpt: string;
  textLength: number;
  version: number;
  publishedAt: Date;
  editedAt: Date | null;
  likeCount: number;
  commentCount: number;
  author: PersonCard;
};

function answerItem(question: Pick<QuestionRow, "id" | "circleId" | "acceptedAnswerId">, row: AnswerSelected): AnswerItem {
  return {
    ...row,
    accepted: row.id === question.acceptedAnswerId,
    publishedAt: row.publishedAt.toISOString(),
    editedAt: row.editedAt?.toISOString() ?? null,
    url: answerPath(question, row.author.username),
  };
}

function answersFrom(db: Executor) {
  return db
    .select(answerSelection())
    .from(answers)
    .innerJoin(users, eq(users.id, answers.authorId))
    .leftJoin(subjectCounts, and(eq(subjectCounts.subjectType, "answer"), eq(subjectCounts.subjectId, answers.id)));
}

/** Keyset cursors of answer lists: `v<likes>_<id>` by votes, `i<id>` by time (ids grow with time). */
function parseAnswerCursor(cursor: string | null | undefined): { likes: number; id: number } | { id: number } | null {
  if (!cursor) return null;
  const votes = /^v(\d{1,10})_(\d{1,10})$/.exec(cursor);
  if (votes) return { likes: Number(votes[1]), id: Number(votes[2]) };
  const time = /^i(\d{1,10})$/.exec(cursor);
  if (time) return { id: Number(time[1]) };
  return null;
}

/**
 * One page of a question's answers: by votes (likes, then oldest first) or by time (newest
 * first); the accepted answer leads the first page and is left out of the rest.
 */
export async function listAnswers(
  db: Executor,
  question: Pick<QuestionRow, "id" | "circleId" | "acceptedAnswerId">,
  options: { sort: AnswerSort; cursor?: string | null; limit?: number },
): Promise<{ items: AnswerItem[]; nextCursor: string | null }> {
  const limit = Math.min(Math.max(options.limit ?? 20, 1), 50);
  const cursor = parseAnswerCursor(options.cursor);
  // Hidden answers (moderation) are out of the list; their authors still open them on their own pages.
  const conditions: (SQL | undefined)[] = [eq(answers.questionId, question.id), isNull(answers.hiddenAt)];
  if (question.acceptedAnswerId !== null) conditions.push(ne(answers.id, question.acceptedAnswerId));
  const byVotes = options.sort === "votes";
  if (cursor && byVotes && "likes" in cursor)
    conditions.push(sql`(${likeCount}, -${answers.id}) < (${cursor.likes}::integer, -${cursor.id}::integer)`);
  else if (cursor && !byVotes && !("likes" in cursor)) conditions.push(sql`${answers.id} < ${cursor.id}`);
  const rows = await answersFrom(db)
    .where(and(...conditions))
    .orderBy(...(byVotes ? [desc(likeCount), asc(answers.id)] : [desc(answers.id)]))
    .limit(limit + 1);
  const more = rows.length > limit;
  const page = rows.slice(0, limit);
  const items = page.map((row) => answerItem(question, row));
  if (!cursor && question.acceptedAnswerId !== null) {
    const [accepted] = await answersFrom(db)
      .where(and(eq(answers.id, question.acceptedAnswerId), isNull(answers.hiddenAt)))
      .limit(1);
    if (accepted) items.unshift(answerItem(question, accepted));
  }
  const last = page.at(-1);
  const nextCursor = !more || !last ? null : byVotes ? `v${last.likeCount}_${last.id}` : `i${last.id}`;
  return { items, nextCursor };
}

/** One answer as its page and the API show it. */
export async function answerItemOf(
  db: Executor,
  question: Pick<QuestionRow, "id" | "circleId" | "acceptedAnswerId">,
  id: number,
): Promise<AnswerItem | null> {
  const [row] = await answersFrom(db).where(eq(answers.id, id)).limit(1);
  return row ? answerItem(question, row) : null;
}

/** The answer of `username` to a question (the answer page's address). */
export async function answerOfUser(db: Executor, questionId: number, username: string): Promise<number | null> {
  const [row] = await db
    .select({ id: answers.id })
    .from(answers)
    .innerJoin(users, eq(users.id, answers.authorId))
    .where(and(eq(answers.questionId, questionId), eq(users.username, username)))
    .limit(1);
  return row?.id ?? null;
}

/** Keyset cursors of question lists: `u<published µs>_<id>` by time, `h<score>_<id>` for Hot. */
function parseQuestionCursor(cursor: string | null | undefined): { time: string; id: number } | { score: number; id: number } | null {
  if (!cursor) return null;
  const micros = /^u(\d{1,18})_(\d{1,10})$/.exec(cursor);
  if (micros) return { time: micros[1]!, id: Number(micros[2]) };
  const hot = /^h(\d+(?:\.\d+)?(?:e-?\d{1,3})?)_(\d{1,10})$/.exec(cursor);
  if (hot && Number.isFinite(Number(hot[1]))) return { score: Number(hot[1]), id: Number(hot[2]) };
  return null;
}

/**
 * One page of questions the viewer may read: a circle's (Latest, Hot, Unanswered) or a user's
 * (their profile), newest first or by the stored Hot score, paged by keyset cursor.
 */
export async function listQuestions(
  db: Executor,
  viewer: Pick<Viewer, "id"> | null,
  options: { circleId?: number; authorId?: number; tab?: QuestionTab; cursor?: string | null; limit?: number },
): Promise<{ items: QuestionListItem[]; nextCursor: string | null }> {
  const tab = options.tab ?? "latest";
  const limit = Math.min(Math.max(options.limit ?? 20, 1), 50);
  let circleIds = await readableCircleIds(db, viewer);
  if (options.circleId !== undefined) circleIds = circleIds.filter((id) => id === options.circleId);
  if (circleIds.length === 0) return { items: [], nextCursor: null };
  const hot = tab === "hot";
  const cursor = parseQuestionCursor(options.cursor);
  const conditions: (SQL | undefined)[] = [
    inArray(questions.circleId, circleIds),
    isNull(questions.hiddenAt),
    options.authorId !== undefined ? eq(questions.authorId, options.authorId) : undefined,
    tab === "unanswered" ? eq(questions.answerCount, 0) : undefined,
  ];
  if (cursor && hot && "score" in cursor)
    conditions.push(sql`(${questions.hotScore}, ${questions.id}) < (${cursor.score}::float8, ${cursor.id}::integer)`);
  else if (cursor && !hot && "time" in cursor)
    conditions.push(
      sql`(${questions.publishedAt}, ${questions.id}) < (timestamptz 'epoch' + ${cursor.time}::bigint * interval '1 microsecond', ${cursor.id}::integer)`,
    );
  const rows = await db
    .select({
      id: questions.id,
      circleId: questions.circleId,
      title: questions.title,
      excerpt: questions.excerpt,
      language: questions.language,
      answerCount: questions.answerCount,
      views: questions.views,
      acceptedAnswerId: questions.acceptedAnswerId,
      publishedAt: questions.publishedAt,
      hotScore: questions.hotScore,
      publishedMicros: sql<string>`(extract(epoch from ${questions.publishedAt}) * 1000000)::bigint::text`,
      author: personColumns,
    })
    .from(questions)
    .innerJoin(users, eq(users.id, questions.authorId))
    .where(and(...conditions))
    .orderBy(...(hot ? [desc(questions.hotScore), desc(questions.id)] : [desc(questions.publishedAt), desc(questions.id)]))
    .limit(limit + 1);
  const more = rows.length > limit;
  const page = rows.slice(0, limit);
  const ids = page.map((row) => row.id);
  const [categories, best] = await Promise.all([categoriesOfQuestions(db, ids), bestAnswers(db, page)]);
  const last = page.at(-1);
  const nextCursor = !more || !last ? null : hot ? `h${last.hotScore}_${last.id}` : `u${last.publishedMicros}_${last.id}`;
  return {
    items: page.map(({ hotScore: _score, publishedMicros: _micros, acceptedAnswerId: _accepted, ...row }) => ({
      ...row,
      publishedAt: row.publishedAt.toISOString(),
      categories: categories.get(row.id) ?? [],
      bestAnswer: best.get(row.id) ?? null,
      url: questionPath(row),
    })),
    nextCursor,
  };
}

/** The best answer of each question: the accepted one, else the most liked (then the oldest); one query. */
async function bestAnswers(
  db: Executor,
  page: { id: number; acceptedAnswerId: number | null; answerCount: number }[],
): Promise<Map<number, NonNullable<QuestionListItem["bestAnswer"]>>> {
  const ids = page.filter((row) => row.answerCount > 0).map((row) => row.id);
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectDistinctOn([answers.questionId], {
      questionId: answers.questionId,
      id: answers.id,
      excerpt: answers.excerpt,
      accepted: sql<boolean>`${questions.acceptedAnswerId} is not distinct from ${answers.id}`,
      author: personColumns,
    })
    .from(answers)
    .innerJoin(questions, eq(questions.id, answers.questionId))
    .innerJoin(users, eq(users.id, answers.authorId))
    .leftJoin(subjectCounts, and(eq(subjectCounts.subjectType, "answer"), eq(subjectCounts.subjectId, answers.id)))
    .where(and(inArray(answers.questionId, ids), isNull(answers.hiddenAt)))
    .orderBy(
      answers.questionId,
      sql`(${questions.acceptedAnswerId} is not distinct from ${answers.id}) desc`,
      desc(likeCount),
      asc(answers.id),
    );
  return new Map(rows.map(({ questionId, ...row }) => [questionId, { ...row, accepted: Boolean(row.accepted) }]));
}

/** A user's answers, newest first (their profile's Answers tab): only in circles the viewer may read. */
export async function listUserAnswers(
  db: Executor,
  viewer: Pick<Viewer, "id"> | null,
  authorId: number,
  options: { cursor?: string | null; limit?: number } = {},
): Promise<{ items: (AnswerItem & { question: { id: number; circleId: number; title: string } })[]; nextCursor: string | null }> {
  const limit = Math.min(Math.max(options.limit ?? 20, 1), 50);
  const circleIds = await readableCircleIds(db, viewer);
  if (circleIds.length === 0) return { items: [], nextCursor: null };
  const cursor = parseAnswerCursor(options.cursor);
  const rows = await db
    .select({
      ...answerSelection(),
      question: { id: questions.id, circleId: questions.circleId, title: questions.title, acceptedAnswerId: questions.acceptedAnswerId },
    })
    .from(answers)
    .innerJoin(questions, eq(questions.id, answers.questionId))
    .innerJoin(users, eq(users.id, answers.authorId))
    .leftJoin(subjectCounts, and(eq(subjectCounts.subjectType, "answer"), eq(subjectCounts.subjectId, answers.id)))
    .where(
      and(
        eq(answers.authorId, authorId),
        inArray(questions.circleId, circleIds),
        isNull(answers.hiddenAt),
        isNull(questions.hiddenAt),
        cursor && !("likes" in cursor) ? sql`${answers.id} < ${cursor.id}` : undefined,
      ),
    )
    .orderBy(desc(answers.id))
    .limit(limit + 1);
  const more = rows.length > limit;
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    items: page.map(({ question, ...row }) => ({
      ...answerItem(question, row),
      question: { id: question.id, circleId: question.circleId, title: question.title },
    })),
    nextCursor: more && last ? `i${last.id}` : null,
  };
}

/** Hot questions of a circle (the question page's side panel), the stored score's order. */
export async function hotQuestions(
  db: Executor,
  circleId: number,
  exceptId: number,
  limit = 5,
): Promise<{ id: number; circleId: number; title: string; answerCount: number; url: string }[]> {
  const rows = await db
    .select({ id: questions.id, circleId: questions.circleId, title: questions.title, answerCount: questions.answerCount })
    .from(questions)
    .where(and(eq(questions.circleId, circleId), ne(questions.id, exceptId), isNull(questions.hiddenAt)))
    .orderBy(desc(questions.hotScore), desc(questions.id))
    .limit(limit);
  return rows.map((row) => ({ ...row, url: questionPath(row) }));
}

/** What the question's API answer and page show beside the row. */
export interface QuestionDetails {
  author: PersonCard | null;
  categories: { id: number; name: string }[];
  following: boolean;
  myAnswer: { id: number; version: number } | null;
}

export async function questionDetails(
  db: Executor,
  viewer: Pick<Viewer, "id"> | null,
  row: Pick<QuestionRow, "id" | "authorId">,
): Promise<QuestionDetails> {
  const [author, categories, following, myAnswer] = await Promise.all([
    personCard(db, row.authorId),
    categoriesOfQuestions(db, [row.id]).then((map) => map.get(row.id) ?? []),
    viewer ? isFollowingQuestion(db, viewer.id, row.id) : Promise.resolve(false),
    viewer ? ownAnswer(db, viewer.id, row.id) : Promise.resolve(null),
  ]);
  return { author, categories, following, myAnswer };
}

/** Questions visitors may read, for the sitemap: a range by id. */
export async function sitemapQuestions(
  db: Executor,
  circleIds: number[],
  page: { offset: number; limit: number },
): Promise<{ id: number; circleId: number; language: "zh-CN" | "en"; editedAt: Date | null; publishedAt: Date }[]> {
  if (circleIds.length === 0) return [];
  return db
    .select({
      id: questions.id,
      circleId: questions.circleId,
      language: questions.language,
      editedAt: questions.editedAt,
      publishedAt: questions.publishedAt,
    })
    .from(questions)
    .where(and(inArray(questions.circleId, circleIds), isNull(questions.hiddenAt)))
    .orderBy(asc(questions.id))
    .limit(page.limit)
    .offset(page.offset);
}

export async function countSitemapQuestions(db: Executor, circleIds: number[]): Promise<number> {
  if (circleIds.length === 0) return 0;
  const [row] = await db
    .select({ count: sql<number>`count(*)`.mapWith(Number) })
    .from(questions)
    .where(and(inArray(questions.circleId, circleIds), isNull(questions.hiddenAt)));
  return row?.count ?? 0;
}
