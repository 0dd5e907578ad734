import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { jsonRoute } from "../../server/lib/operation.ts";
import { createTopupOperation, topupOperation } from "./operations.ts";
import { receiveNotify } from "./service.ts";

/** Top-ups and the providers' notifies (`/api/payments/{sandbox|alipay|wechat}/notify/`). */
export async function paymentsApi(app: FastifyInstance): Promise<void> {
  const tags = ["wallet"];
  jsonRoute(app, "POST", "/api/wallet/topups/", createTopupOperation, {
    status: 201,
    tags,
    summary: "Create a top-up order (Idempotency-Key required); pay at pay_url",
    config: { rateLimit: { max: 30, timeWindow: "1 minute" } },
  });
  jsonRoute(app, "GET", "/api/wallet/topups/:order_id/", topupOperation, { tags, summary: "A top-up order's state" });
  await app.register(notifyRoutes);
}

/**
 * The notify endpoint keeps the body exactly as sent (signatures cover the bytes): its own
 * parsers, in this plugin's scope only. No session, no CSRF: the signature is the authentication.
 */
async function notifyRoutes(app: FastifyInstance): Promise<void> {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("*", { parseAs: "string", bodyLimit: 64 * 1024 }, (_request, body, done) => done(null, body));
  app.route({
    method: "POST",
    url: "/api/payments/:provider/notify/",
    config: { signedCallback: true },
    schema: {
      operationId: "paymentNotify",
      tags: ["wallet"],
      summary: "A payment provider's signed notify (sandbox, alipay, wechat); refused unless its signature and amount check out",
      params: z.object({ provider: z.enum(["sandbox", "alipay", "wechat"]) }),
      response: { 200: z.string().describe("The provider's acknowledgement (`success`, JSON…)") },
    },
    handler: async (request, reply) => {
      const { provider } = request.params as { provider: string };
      const answer = await receiveNotify(
        app.db,
        provider,
        { headers: request.headers, rawBody: typeof request.body === "string" ? request.body : "" },
        app.now(),
        (reason, orderId) => request.log.warn({ provider, orderId, reason }, "payment notify refused"),
      );
      request.log.info({ provider, outcome: answer.outcome }, "payment notify");
      return reply
        .header("cache-control", "no-store")
        .type(answer.acknowledgement.contentType)
        .serializer((payload) => payload as string)
        .send(answer.acknowledgement.body);
    },
  });
}
