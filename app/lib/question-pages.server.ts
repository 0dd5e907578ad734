import { withAdornments } from "../../features/shop/service.ts";
import { commentIntentsFor, commentsSection, commentsSectionOf, embeddedCommentsSection } from "./comment-pages.server.ts";
import { questionSubject } from "../../features/questions/subject.ts";
import { data, redirect } from "react-router";
import type { AppContext } from "../context.ts";
import { AppError } from "../../common/app-error.ts";
import { idFromText } from "../../common/id.ts";
import { localizePath, pageUrl } from "../../common/locale.ts";
import { deleteDraft, getDraft, hasDraft } from "../../features/writings/drafts.ts";
import { csrfForForm, notFound, privatePageHeaders, tagPage } from "./context.server.ts";
import { circleIdOf, tagCirclePage } from "./circle-pages.server.ts";
import { orNotFound, pathIdOf, redirectToOwnCircle } from "./book-pages.server.ts";
import { failuresOnErrorScreen, formAction, type FormHandler, type FormPost } from "../../server/lib/operation.ts";
import { countsTag, subjectPageTags, userTags } from "../../server/lib/cache-tags.ts";
import { getCircleRow } from "../../features/circles/service.ts";
import { localizedTexts } from "../../features/circles/presenter.ts";
import { loadCircleAccess } from "../../features/circles/access.server.ts";
import { can as canInCircle, canViewCircle } from "../../features/circles/policy.ts";
import { entriesByIds } from "../../features/encyclopedia/service.ts";
import { interactionSummary, type InteractionSummary } from "../../features/reactions/viewer-state.ts";
import { moderationNotice } from "../../features/reports/service.ts";
import { presentQuestion } from "../../features/questions/presenter.ts";
import { canOnAnswer } from "../../features/questions/policy.ts";
import { questionTabValues, answerSortValues, type AnswerSort, type QuestionTab } from "../../features/questions/schema.ts";
import {
  answerItemOf,
  answerOfUser,
  listAnswers,
  listQuestions,
  loadReadableAnswer,
  loadReadableQuestion,
  type AnswerItem,
  type QuestionRow,
} from "../../features/questions/service.ts";
import { firstAnswersLimit, questionReading } from "../../features/questions/reading.ts";
import { answerPath, questionPath } from "../../features/questions/paths.ts";
import {
  acceptAnswerOperation,
  answerQuestionOperation,
  deleteAnswerOperation,
  deleteQuestionOperation,
  followQuestionOperation,
  unfollowQuestionOperation,
  updateAnswerOperation,
  withdrawAcceptanceOperation,
} from "../../features/questions/operations.ts";

/** Answers in a page of the question page (the accepted one comes on top of the first): as many as the remembered first page. */
const answersPerPage = firstAnswersLimit;

/** The draft key of a question's answer box (`/account/drafts` reopens it on the question page). */
export const answerDraftKey = (questionId: number) => `answer-${questionId}`;

export async function circleName(app: AppContext, circleId: number): Promise<string> {
  const row = await getCircleRow(app.db, circleId);
  return row ? localizedTexts(row, app.locale).name : "";
}

/** Loader data with the CSRF token for the signed in (private copies); visitors' copies stay cacheable. */
export function withToken<T extends object>(app: AppContext, value: T) {
  if (!app.viewer) return data({ ...value, csrfToken: null as string | null });
  const csrf = csrfForForm(app);
  return data(
    { ...value, csrfToken: csrf.token as string | null },
    { headers: { ...privatePageHeaders(), ...(csrf.setCookie ? { "Set-Cookie": csrf.setCookie } : {}) } },
  );
}

/** A circle whose questions the viewer may read (404 when hidden, the login for a visitor who may only see it). */
async function readableCircle(app: AppContext, request: Request, circleId: number) {
  const access = await loadCircleAccess(app.db, app.viewer, circleId);
  if (!access || !canViewCircle(access)) notFound(request);
  if (!canInCircle(app.viewer, "read_content", access)) {
    if (!app.viewer) throw new AppError("not_authenticated");
    return { access, readable: false };
  }
  return { access, readable: true };
}

/** `/circles/{id}/questions`: tabs Latest, Hot, Unanswered, paged by cursor. */
export async function questionListPage(app: AppContext, request: Request, params: { circleId?: string }) {
  const circleId = circleIdOf(request, params.circleId);
  const { access, readable } = await readableCircle(app, request, circleId);
  await tagCirclePage(app, circleId);
  const query = pageUrl(request.url).searchParams;
  const tab: QuestionTab = questionTabValues.includes(query.get("tab") as QuestionTab) ? (query.get("tab") as QuestionTab) : "latest";
  const list = readable ? await listQuestions(app.db, app.viewer, { circleId, tab, cursor: query.get("cursor") }) : null;
  return {
    circle: { id: circleId, name: await circleName(app, circleId) },
    tab,
    list,
    // Visitors see Ask too: the ask page sends them to sign in and brings them back.
    canAsk: app.viewer === null || canInCircle(app.viewer, "write", access),
    deleted: query.get("deleted") === "1",
  };
}

export type QuestionListPageData = Awaited<ReturnType<typeof questionListPage>>;

/** Under the question's own circle (else 301 there), the page's tags. */
async function ownCirclePage(app: AppContext, request: Request, circleId: number, row: QuestionRow) {
  redirectToOwnCircle(request, circleId, row.circleId);
  tagPage(app, ...subjectPageTags("question", row.id));
  await tagCirclePage(app, row.circleId);
}

/** The question the page names, readable by the viewer, under its own circle (else 301 there). */
async function pageQuestion(app: AppContext, request: Request, params: { circleId?: string; questionId?: string }) {
  const circleId = circleIdOf(request, params.circleId);
  const questionId = pathIdOf(request, params.questionId);
  const loaded = await orNotFound(request, () => loadReadableQuestion(app.db, app.viewer, questionId));
  await ownCirclePage(app, request, circleId, loaded.row);
  return loaded;
}

/** A page of answers other than the remembered first one by votes, with what each answerer wears. */
async function otherAnswers(app: AppContext, row: QuestionRow, sort: AnswerSort, cursor: string | null) {
  const listed = await listAnswers(app.db, row, { sort, cursor, limit: answersPerPage });
  const authors = await withAdornments(
    app.db,
    listed.items.map((item) => item.author),
  );
  return { ...listed, items: listed.items.map((item, index) => ({ ...item, author: authors[index]! })) };
}

/** The action bars of these answers, for this viewer. */
async function answerInteractions(app: AppContext, items: AnswerItem[]): Promise<Record<number, InteractionSummary>> {
  const summaries = await Promise.all(
    items.map((item) => interactionSummary(app.db, app.viewer, { type: "answer", id: item.id, authorId: item.author.id })),
  );
  return Object.fromEntries(items.map((item, index) => [item.id, summaries[index]!]));
}

/**
 * The question page: the question (rendered description, categories, related entries, follow),
 * its answers by votes or time with the accepted one first, the viewer's answer box or "Edit my
 * answer", the asker's accept buttons, and the side panel of similar and hot questions.
 */
export async function questionPage(app: AppContext, request: Request, params: { circleId?: string; questionId?: string }) {
  const circleId = circleIdOf(request, params.circleId);
  // Remembered (features/questions/reading.ts): a warm page reads nothing but what is not the question's.
  const questionId = pathIdOf(request, params.questionId);
  const reading = await orNotFound(request, () => questionReading(app.db, app.viewer, questionId));
  const { row, access } = reading;
  await ownCirclePage(app, request, circleId, row);
  const query = pageUrl(request.url).searchParams;
  const sort: AnswerSort = answerSortValues.includes(query.get("sort") as AnswerSort) ? (query.get("sort") as AnswerSort) : "votes";
  const cursor = query.get("cursor");
  const [answers, related, name] = await Promise.all([
    sort === "votes" && !cursor ? reading.firstAnswers : otherAnswers(app, row, sort, cursor),
    entriesByIds(app.db, app.viewer, row.relatedEntryIds),
    circleName(app, row.circleId),
  ]);
  const details = { author: reading.author, categories: reading.categories, following: reading.following, myAnswer: reading.myAnswer };
  const { similar, hot } = reading;
  tagPage(app, ...userTags(answers.items.map((item) => item.author.id)), ...userTags([row.authorId]));
  const question = { ...presentQuestion(app.viewer, row, access, details), content: "" };
  const answerCan = Object.fromEntries(
    answers.items.map((item) => [
      item.id,
      { delete: canOnAnswer(app.viewer, "delete", { question: row, access, answer: { authorId: item.author.id } }) },
    ]),
  );
  const notice = query.get("notice");
  // One answer's comments open under it at a time (`?answer_comments=<id>`, Zhihu's toggle): its first ones, its forms post to its own page.
  const openedId = idFromText(query.get("answer_comments"));
  const opened = openedId === null ? undefined : answers.items.find((item) => item.id === openedId);
  const [comments, answerComments, moderation] = await Promise.all([
    // The question as loaded above: its comments need not read it again.
    commentsSection(app, request, questionSubject(row, access)),
    opened ? embeddedCommentsSection(app, { type: "answer", id: opened.id }) : Promise.resolve(null),
    row.hiddenAt ? moderationNotice(app.db, "question", row.id) : Promise.resolve(null),
  ]);
  // The answer box's server draft (Markdown saved while typing), for who may still answer.
  const draftKey = answerDraftKey(row.id);
  const draft =
    app.viewer && question.can.answer && !question.my_answer && (await hasDraft(app.db, app.viewer.id, draftKey))
      ? await getDraft(app.db, app.viewer.id, draftKey)
      : null;
  return withToken(app, {
    answerDraft: {
      key: answerDraftKey(row.id),
      version: draft?.version ?? 0,
      body: draft?.body ?? null,
      updatedAt: draft?.updated_at ?? null,
    },
    comments,
    answerComments: opened && answerComments ? { answerId: opened.id, comments: answerComments } : null,
    moderation,
    question,
    circle: { id: row.circleId, name },
    sort,
    answers,
    answerCan,
    answerInteractions: await answerInteractions(app, answers.items),
    interactions: await interactionSummary(app.db, app.viewer, { type: "question", id: row.id, authorId: row.authorId }),
    related,
    similar,
    hot,
    signedIn: app.viewer !== null,
    canJoin: app.viewer !== null && canInCircle(app.viewer, "join", access),
    notice,
    origin: pageUrl(request.url).origin,
  });
}

export type QuestionPageData = Awaited<ReturnType<typeof questionPage>>["data"];

/**
 * An answer's own page (`…/questions/{id}/{username}`): the question's summary, the answer, links
 * to the other answers; `?edit=1` opens its author's edit form.
 */
export async function answerPage(app: AppContext, request: Request, params: { circleId?: string; questionId?: string; answerer?: string }) {
  const { row, access } = await pageQuestion(app, request, params);
  const username = params.answerer ?? "";
  const answerId = await answerOfUser(app.db, row.id, username);
  if (answerId === null) notFound(request);
  const loaded = await orNotFound(request, () => loadReadableAnswer(app.db, app.viewer, answerId));
  const found = await answerItemOf(app.db, row, answerId);
  if (!found) notFound(request);
  const [author] = await withAdornments(app.db, [found.author]);
  const item = { ...found, author: author! };
  tagPage(app, ...subjectPageTags("answer", answerId), countsTag("answer", answerId), ...userTags([item.author.id, row.authorId]));
  const others = (await listAnswers(app.db, row, { sort: "votes", limit: 10 })).items.filter((other) => other.id !== answerId);
  const resource = { question: row, access, answer: loaded.row };
  const canEdit = canOnAnswer(app.viewer, "edit", resource);
  const editing = canEdit && pageUrl(request.url).searchParams.get("edit") === "1";
  return withToken(app, {
    question: {
      id: row.id,
      circleId: row.circleId,
      title: row.title,
      excerpt: row.excerpt,
      answerCount: row.answerCount,
      acceptedAnswerId: row.acceptedAnswerId,
      url: questionPath(row),
    },
    circle: { id: row.circleId, name: await circleName(app, row.circleId) },
    answer: item,
    edit: editing ? { content: loaded.row.markdown, version: loaded.row.version } : null,
    can: { edit: canEdit, delete: canOnAnswer(app.viewer, "delete", resource) },
    others,
    interactions: await interactionSummary(app.db, app.viewer, { type: "answer", id: item.id, authorId: item.author.id }),
    comments: await commentsSectionOf(app, request, { type: "answer", id: answerId }),
    moderation: loaded.row.hiddenAt
      ? await moderationNotice(app.db, "answer", answerId)
      : row.hiddenAt
        ? await moderationNotice(app.db, "question", row.id)
        : null,
    notice: pageUrl(request.url).searchParams.get("notice"),
    origin: pageUrl(request.url).origin,
  });
}

export type AnswerPageData = Awaited<ReturnType<typeof answerPage>>["data"];

const questionIdOf = (post: FormPost) => ({ id: pathIdOf(post.request, post.params.questionId) });

/** Back to the question page with a notice, at `anchor`. */
function backToQuestion(post: FormPost, notice: string, anchor: string): never {
  const url = pageUrl(post.request.url);
  const sort = url.searchParams.get("sort");
  const query = new URLSearchParams({ ...(sort ? { sort } : {}), notice });
  throw redirect(`${url.pathname}?${query.toString()}#${anchor}`, 303);
}

/** What the answer box answers after a refused post: the text kept, the message (a second answer: "You have answered this question"). */
export interface AnswerFormFailure {
  answerForm: true;
  values: { content: string };
  formError?: string;
  fieldErrors?: Record<string, string>;
  code: string;
  /** For `already_answered`: the viewer's answer (the page may still show the box it came from). */
  existing?: { url: string };
}

function answerIdFrom(post: FormPost): number {
  const id = idFromText(post.form.get("answer_id"));
  if (id === null) throw new AppError("bad_request");
  return id;
}

/**
 * The question page's intents, plain form posts that come back to the page: `answer`, `follow`,
 * `unfollow`, `accept` (`answer_id`), `withdraw`, `delete` (the question, asked first) and
 * `delete-answer` (`answer_id`, asked first). They run the API's operations.
 */
export const questionIntents: Record<string, FormHandler> = {
  answer: formAction(answerQuestionOperation, {
    params: questionIdOf,
    body: (form) => ({ content: typeof form.get("content") === "string" ? form.get("content") : "" }),
    done: async (created, post) => {
      await deleteDraft({ db: post.app.db }, post.app.viewer!.id, answerDraftKey(questionIdOf(post).id));
      backToQuestion(post, "answered", `answer-${created.id}`);
    },
    failed: (failure, post) =>
      data<AnswerFormFailure>(
        {
          answerForm: true,
          values: { content: String(post.form.get("content") ?? "") },
          code: failure.code,
          ...(failure.code === "already_answered" && post.app.viewer
            ? {
                existing: {
                  url: answerPath(
                    { id: questionIdOf(post).id, circleId: circleIdOf(post.request, post.params.circleId) },
                    post.app.viewer.username,
                  ),
                },
              }
            : {}),
          ...(failure.fieldErrors ? { fieldErrors: failure.fieldErrors } : { formError: failure.formError }),
        },
        { status: failure.status },
      ),
  }),
  follow: formAction(followQuestionOperation, {
    params: questionIdOf,
    done: (_answer, post) => backToQuestion(post, "followed", "question"),
    ...failuresOnErrorScreen,
  }),
  unfollow: formAction(unfollowQuestionOperation, {
    params: questionIdOf,
    done: (_answer, post) => backToQuestion(post, "unfollowed", "question"),
    ...failuresOnErrorScreen,
  }),
  accept: async (post) =>
    formAction(acceptAnswerOperation, {
      params: questionIdOf,
      body: () => ({ answer_id: answerIdFrom(post) }),
      done: (answer, done) => backToQuestion(done, "accepted", `answer-${answer.accepted_answer_id}`),
      ...failuresOnErrorScreen,
    })(post),
  withdraw: formAction(withdrawAcceptanceOperation, {
    params: questionIdOf,
    done: (_answer, post) => backToQuestion(post, "withdrawn", "answers"),
    ...failuresOnErrorScreen,
  }),
  delete: async (post) => {
    if (post.form.get("confirmed") !== "1") return { confirmDelete: true };
    return formAction(deleteQuestionOperation, {
      params: questionIdOf,
      done: (_answer, { app }, { result }) => {
        throw redirect(localizePath(`/circles/${result.circleId}/questions?deleted=1`, app.locale), 303);
      },
      ...failuresOnErrorScreen,
    })(post);
  },
  "delete-answer": async (post) => {
    const answerId = answerIdFrom(post);
    if (post.form.get("confirmed") !== "1") return { confirmDeleteAnswer: answerId };
    return formAction(deleteAnswerOperation, {
      params: () => ({ id: answerId }),
      done: (_answer, { app }, { result }) => {
        throw redirect(localizePath(`/circles/${result.circleId}/questions/${result.questionId}?notice=deleted#answers`, app.locale), 303);
      },
      ...failuresOnErrorScreen,
    })(post);
  },
};

/** What the answer page's edit form answers when refused: the text kept, the message, and for a conflict the saved version. */
export interface AnswerEditFailure {
  editForm: true;
  values: { content: string };
  formError?: string;
  fieldErrors?: Record<string, string>;
  current?: { content: string; version: number };
}

/**
 * The answer page's intents for the answer of its URL: its own (below) and the comment intents
 * (`comment`, `reply`, `edit-comment`, `delete-comment`), also posted from the question page's
 * embedded comments.
 */
export async function answerPageIntents(app: AppContext, request: Request, params: { questionId?: string; answerer?: string }) {
  const questionId = pathIdOf(request, params.questionId);
  const answerId = await answerOfUser(app.db, questionId, params.answerer ?? "");
  if (answerId === null) notFound(request);
  return { ...answerIntents, ...commentIntentsFor(() => ({ type: "answer", id: answerId })) };
}

/** The answer page's own intents: `edit-answer` (content, version) and `delete-answer`, `accept`, `withdraw` as on the question page. */
export const answerIntents: Record<string, FormHandler> = {
  "edit-answer": async (post) => {
    const questionId = pathIdOf(post.request, post.params.questionId);
    const answerId = await answerOfUser(post.app.db, questionId, post.params.answerer ?? "");
    if (answerId === null) notFound(post.request);
    const content = String(post.form.get("content") ?? "");
    return formAction(updateAnswerOperation, {
      params: () => ({ id: answerId }),
      body: (form) => ({ content, version: idFromText(form.get("version")) ?? 0 }),
      done: () => {
        throw redirect(`${pageUrl(post.request.url).pathname}?notice=edited#answer`, 303);
      },
      failed: async (failure, { app }) => {
        let current: AnswerEditFailure["current"];
        if (failure.code === "edit_conflict") {
          const loaded = await loadReadableAnswer(app.db, app.viewer, answerId);
          current = { content: loaded.row.markdown, version: loaded.row.version };
        }
        return data<AnswerEditFailure>(
          {
            editForm: true,
            values: { content },
            ...(failure.fieldErrors ? { fieldErrors: failure.fieldErrors } : { formError: failure.formError }),
            ...(current ? { current } : {}),
          },
          { status: failure.status },
        );
      },
    })(post);
  },
  "delete-answer": questionIntents["delete-answer"]!,
  accept: questionIntents.accept!,
  withdraw: questionIntents.withdraw!,
};
