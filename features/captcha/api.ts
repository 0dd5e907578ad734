import type { FastifyInstance } from "fastify";
import { jsonRoute } from "../../server/lib/operation.ts";
import { answerCaptchaOperation, createCaptchaOperation } from "./operations.ts";

/** The sign-in slider puzzle: a new challenge, and checking where its piece was dropped. */
export async function captchaApi(app: FastifyInstance, { perMinute }: { perMinute: number }): Promise<void> {
  const tags = ["captcha"];
  // Drawing a puzzle costs an image render and a row: one address gets a few a minute (30 by default), plenty for people.
  jsonRoute(app, "GET", "/api/captcha/", createCaptchaOperation, {
    tags,
    summary: "A new slider puzzle (background and piece images, the piece's row)",
    cache: "no-store",
    config: { rateLimit: { max: perMinute, timeWindow: "1 minute" } },
  });
  jsonRoute(app, "POST", "/api/captcha/verify/", answerCaptchaOperation, {
    tags,
    status: 204,
    summary: "Check where the piece was dropped; a solved puzzle lets the next sign-in through",
    cache: "none",
  });
}
