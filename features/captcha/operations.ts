import { defineOperation, noContent } from "../../server/lib/operation.ts";
import { captchaAnswerSchema, captchaChallengeSchema } from "./schema.ts";
import { answerChallenge, createChallenge } from "./service.ts";

/* The sign-in slider puzzle: a new challenge, and checking where its piece was dropped. */

export const createCaptchaOperation = defineOperation({
  name: "createCaptcha",
  input: {},
  viewer: "optional",
  run: (services) => createChallenge(services.db),
  present: (challenge) => challenge,
  response: captchaChallengeSchema,
  failures: [],
});

export const answerCaptchaOperation = defineOperation({
  name: "answerCaptcha",
  input: { body: captchaAnswerSchema },
  viewer: "optional",
  run: (services, _viewer, { body }) => answerChallenge(services.db, body),
  present: () => null,
  response: noContent,
  failures: ["captcha_failed"],
});
