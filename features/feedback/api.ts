import type { FastifyInstance, FastifyRequest } from "fastify";
import { jsonRoute } from "../../server/lib/operation.ts";
import { listAllFeedbackOperation, listOwnFeedbackOperation, sendFeedbackOperation, setFeedbackStatusOperation } from "./operations.ts";

/** Feedback to the site admins; the real limit (five an hour per sender) is counted from the rows in the service. */
export async function feedbackApi(app: FastifyInstance): Promise<void> {
  const tags = ["feedback"];
  jsonRoute(app, "POST", "/api/feedback/", sendFeedbackOperation, {
    status: 201,
    tags,
    summary: "Send feedback to the site admins (category, message, page_path)",
    config: {
      rateLimit: { max: 10, timeWindow: "1 minute", keyGenerator: (request: FastifyRequest) => request.cookies.sessionid ?? request.ip },
    },
  });
  jsonRoute(app, "GET", "/api/feedback/", listOwnFeedbackOperation, {
    tags,
    summary: "The viewer's own feedback, newest first, with its status",
  });
  jsonRoute(app, "GET", "/api/admin/feedback/", listAllFeedbackOperation, { tags, summary: "Everyone's feedback (site admins)" });
  jsonRoute(app, "POST", "/api/admin/feedback/:id/status/", setFeedbackStatusOperation, {
    tags,
    summary: "Set a feedback's status and reply (site admins)",
  });
}
