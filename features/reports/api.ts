import type { FastifyInstance, FastifyRequest } from "fastify";
import { jsonRoute } from "../../server/lib/operation.ts";
import { listCasesOperation, reportOperation, resolveCaseOperation } from "./operations.ts";

/** Reports on any subject of the registry and the moderation queues. */
export async function reportsApi(app: FastifyInstance): Promise<void> {
  jsonRoute(app, "POST", "/api/subjects/:type/:id/reports/", reportOperation, {
    status: 201,
    tags: ["interactions"],
    summary: "Report a subject (reason and description); once per reporter while its case is open",
    // Per session (one report per case already): a script reporting everything in sight is slowed down.
    config: {
      rateLimit: { max: 30, timeWindow: "1 minute", keyGenerator: (request: FastifyRequest) => request.cookies.sessionid ?? request.ip },
    },
  });
  jsonRoute(app, "GET", "/api/moderation/cases/", listCasesOperation, {
    tags: ["moderation"],
    summary: "Moderation cases, newest first: a circle's and its sub-circles' (circle_id) or every one (site moderators)",
  });
  jsonRoute(app, "POST", "/api/moderation/cases/:id/resolve/", resolveCaseOperation, {
    tags: ["moderation"],
    summary: "Decide a case: hide, restore, delete or dismiss, with a note",
  });
}
