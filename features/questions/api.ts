import type { FastifyInstance } from "fastify";
import { jsonRoute } from "../../server/lib/operation.ts";
import { documentBodyLimit } from "../writings/api.ts";
import {
  acceptAnswerOperation,
  answerQuestionOperation,
  askQuestionOperation,
  deleteAnswerOperation,
  deleteQuestionOperation,
  followQuestionOperation,
  getAnswerOperation,
  getQuestionOperation,
  listAnswersOperation,
  listCircleQuestions,
  similarQuestionsOperation,
  unfollowQuestionOperation,
  updateAnswerOperation,
  updateQuestionOperation,
  withdrawAcceptanceOperation,
} from "./operations.ts";

/** Questions and answers (features/questions/operations.ts), under "questions" in /api/docs. */
export async function questionsApi(app: FastifyInstance): Promise<void> {
  const tags = ["questions"];
  const documents = { tags, bodyLimit: documentBodyLimit };

  jsonRoute(app, "POST", "/api/circles/:cid/questions/", askQuestionOperation, {
    ...documents,
    status: 201,
    summary: "Ask a question in a circle",
  });
  jsonRoute(app, "GET", "/api/circles/:cid/questions/", listCircleQuestions, {
    tags,
    summary: "A circle's questions: latest, hot or unanswered, paged by cursor",
  });
  jsonRoute(app, "GET", "/api/questions/similar/", similarQuestionsOperation, {
    tags,
    summary: "Up to ten questions sharing words with `q` (Chinese and English), in circles the viewer may read",
  });
  jsonRoute(app, "GET", "/api/questions/:id/", getQuestionOperation, {
    tags,
    summary: "A question with the viewer's state and allowed actions",
  });
  jsonRoute(app, "PATCH", "/api/questions/:id/", updateQuestionOperation, {
    ...documents,
    summary: "Edit a question (its asker); a stale `version` answers 409 edit_conflict with the current one",
  });
  jsonRoute(app, "DELETE", "/api/questions/:id/", deleteQuestionOperation, {
    tags,
    status: 204,
    cache: "none",
    summary: "Delete a question with its answers for good (its asker or the circle's moderators)",
  });
  jsonRoute(app, "POST", "/api/questions/:id/answers/", answerQuestionOperation, {
    ...documents,
    status: 201,
    summary: "Answer a question: once per user (409 already_answered with the existing answer's url)",
  });
  jsonRoute(app, "GET", "/api/questions/:id/answers/", listAnswersOperation, {
    tags,
    summary: "A question's answers by votes or time, the accepted one first, paged by cursor",
  });
  jsonRoute(app, "PUT", "/api/questions/:id/accepted_answer/", acceptAnswerOperation, {
    tags,
    summary: "Accept an answer (the asker), or another instead",
  });
  jsonRoute(app, "DELETE", "/api/questions/:id/accepted_answer/", withdrawAcceptanceOperation, {
    tags,
    summary: "Withdraw the accepted answer (the asker)",
  });
  jsonRoute(app, "PUT", "/api/questions/:id/follow/", followQuestionOperation, {
    tags,
    summary: "Follow a question (told of new answers)",
  });
  jsonRoute(app, "DELETE", "/api/questions/:id/follow/", unfollowQuestionOperation, { tags, summary: "Stop following a question" });
  jsonRoute(app, "GET", "/api/answers/:id/", getAnswerOperation, {
    tags,
    summary: "An answer with its Markdown and the viewer's allowed actions",
  });
  jsonRoute(app, "PATCH", "/api/answers/:id/", updateAnswerOperation, {
    ...documents,
    summary: "Edit an answer (its author); a stale `version` answers 409 edit_conflict with the current one",
  });
  jsonRoute(app, "DELETE", "/api/answers/:id/", deleteAnswerOperation, {
    tags,
    status: 204,
    cache: "none",
    summary: "Delete an answer for good (its author or the circle's moderators)",
  });
}
