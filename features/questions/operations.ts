import { z } from "zod";
import { idSchema } from "../../common/id.ts";
import type { Executor } from "../../server/db/client.ts";
import { defineOperation, noContent } from "../../server/lib/operation.ts";
import type { Viewer } from "../accounts/viewer.ts";
import {
  answerDetailSchema,
  answerPageSchema,
  createdSchema,
  presentAnswerDetail,
  presentAnswerPage,
  presentQuestion,
  presentQuestionListPage,
  presentSimilar,
  questionAnswerSchema,
  questionListPageSchema,
  similarListSchema,
} from "./presenter.ts";
import {
  acceptAnswerSchema,
  answerSchema,
  answerSortValues,
  askQuestionSchema,
  cursorSchema,
  questionTabValues,
  similarQuerySchema,
  updateAnswerSchema,
  updateQuestionSchema,
} from "./schema.ts";
import {
  answerItemOf,
  answerQuestion,
  askQuestion,
  deleteAnswer,
  deleteQuestion,
  listAnswers,
  listQuestions,
  loadReadableAnswer,
  loadReadableQuestion,
  questionDetails,
  setAcceptedAnswer,
  setQuestionFollow,
  updateAnswer,
  updateQuestion,
} from "./service.ts";
import { similarQuestions } from "./similar.ts";
import { AppError } from "../../common/app-error.ts";

/*
 * Questions and answers, one definition per operation: served by the API (features/questions/api.ts)
 * and the question pages' forms (app/lib/question-pages.server.ts).
 */

const circleParams = z.object({ cid: idSchema });
const questionParams = z.object({ id: idSchema });
const answerParams = z.object({ id: idSchema });

export const askQuestionOperation = defineOperation({
  name: "askQuestion",
  input: { params: circleParams, body: askQuestionSchema },
  viewer: "signed-in",
  run: (services, viewer, { params, body }) => askQuestion({ db: services.db }, viewer, params.cid, body),
  present: (created) => created,
  response: createdSchema,
  failures: ["not_found", "forbidden", "validation_failed"],
});

export const listCircleQuestions = defineOperation({
  name: "listCircleQuestions",
  input: { params: circleParams, query: z.object({ tab: z.enum(questionTabValues).default("latest"), cursor: cursorSchema }) },
  viewer: "optional",
  run: (services, viewer, { params, query }) =>
    listQuestions(services.db, viewer, { circleId: params.cid, tab: query.tab, cursor: query.cursor }),
  present: presentQuestionListPage,
  response: questionListPageSchema,
  failures: [],
});

/** A question as its reader sees it (read, and answered after an edit). */
async function questionView(db: Executor, viewer: Viewer | null, id: number) {
  const { row, access } = await loadReadableQuestion(db, viewer, id);
  return { row, access, details: await questionDetails(db, viewer, row) };
}

/** An answer with its question, as its reader sees it (read, and answered after an edit). */
async function answerView(db: Executor, viewer: Viewer | null, id: number) {
  const loaded = await loadReadableAnswer(db, viewer, id);
  const item = await answerItemOf(db, loaded.question, loaded.row.id);
  if (!item) throw new AppError("not_found");
  return { loaded, item };
}

export const getQuestionOperation = defineOperation({
  name: "getQuestion",
  input: { params: questionParams },
  viewer: "optional",
  run: (services, viewer, { params }) => questionView(services.db, viewer, params.id),
  present: ({ row, access, details }, { viewer }) => presentQuestion(viewer, row, access, details),
  response: questionAnswerSchema,
  failures: ["not_found"],
});

export const updateQuestionOperation = defineOperation({
  name: "updateQuestion",
  input: { params: questionParams, body: updateQuestionSchema },
  viewer: "signed-in",
  run: async (services, viewer, { params, body }) => {
    await updateQuestion({ db: services.db }, viewer, params.id, body);
    return questionView(services.db, viewer, params.id);
  },
  present: ({ row, access, details }, { viewer }) => presentQuestion(viewer, row, access, details),
  response: questionAnswerSchema,
  failures: ["not_found", "forbidden", "validation_failed", "edit_conflict"],
});

export const deleteQuestionOperation = defineOperation({
  name: "deleteQuestion",
  input: { params: questionParams },
  viewer: "signed-in",
  run: (services, viewer, { params }) => deleteQuestion({ db: services.db }, viewer, params.id),
  present: () => null,
  response: noContent,
  failures: ["not_found", "forbidden"],
});

export const similarQuestionsOperation = defineOperation({
  name: "similarQuestions",
  input: { query: similarQuerySchema },
  viewer: "optional",
  run: (services, viewer, { query }) => similarQuestions(services.db, { q: query.q, circleId: query.circle_id, viewer }),
  present: presentSimilar,
  response: similarListSchema,
  failures: [],
});

export const answerQuestionOperation = defineOperation({
  name: "answerQuestion",
  input: { params: questionParams, body: answerSchema },
  viewer: "signed-in",
  run: (services, viewer, { params, body }) => answerQuestion({ db: services.db }, viewer, params.id, body),
  present: (created) => created,
  response: createdSchema,
  failures: ["not_found", "forbidden", "validation_failed", "already_answered"],
});

export const listAnswersOperation = defineOperation({
  name: "listAnswers",
  input: { params: questionParams, query: z.object({ sort: z.enum(answerSortValues).default("votes"), cursor: cursorSchema }) },
  viewer: "optional",
  run: async (services, viewer, { params, query }) => {
    const { row } = await loadReadableQuestion(services.db, viewer, params.id);
    return listAnswers(services.db, row, { sort: query.sort, cursor: query.cursor });
  },
  present: presentAnswerPage,
  response: answerPageSchema,
  failures: ["not_found"],
});

export const getAnswerOperation = defineOperation({
  name: "getAnswer",
  input: { params: answerParams },
  viewer: "optional",
  run: (services, viewer, { params }) => answerView(services.db, viewer, params.id),
  present: ({ loaded, item }, { viewer }) => presentAnswerDetail(viewer, loaded, item),
  response: answerDetailSchema,
  failures: ["not_found"],
});

export const updateAnswerOperation = defineOperation({
  name: "updateAnswer",
  input: { params: answerParams, body: updateAnswerSchema },
  viewer: "signed-in",
  run: async (services, viewer, { params, body }) => {
    await updateAnswer({ db: services.db }, viewer, params.id, body);
    return answerView(services.db, viewer, params.id);
  },
  present: ({ loaded, item }, { viewer }) => presentAnswerDetail(viewer, loaded, item),
  response: answerDetailSchema,
  failures: ["not_found", "forbidden", "validation_failed", "edit_conflict"],
});

export const deleteAnswerOperation = defineOperation({
  name: "deleteAnswer",
  input: { params: answerParams },
  viewer: "signed-in",
  run: (services, viewer, { params }) => deleteAnswer({ db: services.db }, viewer, params.id),
  present: () => null,
  response: noContent,
  failures: ["not_found", "forbidden"],
});

const acceptedSchema = z.strictObject({ accepted_answer_id: z.number().nullable() });

export const acceptAnswerOperation = defineOperation({
  name: "acceptAnswer",
  input: { params: questionParams, body: acceptAnswerSchema },
  viewer: "signed-in",
  run: (services, viewer, { params, body }) => setAcceptedAnswer({ db: services.db }, viewer, params.id, body.answer_id),
  present: (result) => ({ accepted_answer_id: result.acceptedAnswerId }),
  response: acceptedSchema,
  failures: ["not_found", "forbidden", "validation_failed"],
});

export const withdrawAcceptanceOperation = defineOperation({
  name: "withdrawAcceptance",
  input: { params: questionParams },
  viewer: "signed-in",
  run: (services, viewer, { params }) => setAcceptedAnswer({ db: services.db }, viewer, params.id, null),
  present: (result) => ({ accepted_answer_id: result.acceptedAnswerId }),
  response: acceptedSchema,
  failures: ["not_found", "forbidden"],
});

const followSchema = z.strictObject({ following: z.boolean() });

export const followQuestionOperation = defineOperation({
  name: "followQuestion",
  input: { params: questionParams },
  viewer: "signed-in",
  run: (services, viewer, { params }) => setQuestionFollow({ db: services.db }, viewer, params.id, true),
  present: (result) => result,
  response: followSchema,
  failures: ["not_found", "forbidden"],
});

export const unfollowQuestionOperation = defineOperation({
  name: "unfollowQuestion",
  input: { params: questionParams },
  viewer: "signed-in",
  run: (services, viewer, { params }) => setQuestionFollow({ db: services.db }, viewer, params.id, false),
  present: (result) => result,
  response: followSchema,
  failures: ["not_found", "forbidden"],
});
