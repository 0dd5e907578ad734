import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { noContent } from "../../server/lib/operation.ts";
import { captchaAnswerSchema, captchaChallengeSchema } from "./schema.ts";
import { answerChallenge, createChallenge } from "./service.ts";

/** The sign-in slider puzzle: a new challenge, and checking where its piece was dropped. */
export async function captchaApi(app: FastifyInstance, { perMinute }: { perMinute: number }): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();

  // Drawing a puzzle costs an image render and a row: one address gets a few a minute (30 by default), plenty for people.
  api.get(
    "/api/captcha/",
    { schema: { response: { 200: captchaChallengeSchema } }, config: { rateLimit: { max: perMinute, timeWindow: "1 minute" } } },
    async (_request, reply) => {
      reply.header("cache-control", "no-store");
      return createChallenge(app.db);
    },
  );

  api.post("/api/captcha/verify/", { schema: { body: captchaAnswerSchema, response: { 204: noContent } } }, async (request, reply) => {
    await answerChallenge(app.db, request.body);
    return reply.status(204).send(null);
  });
}
