import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { clientOf } from "../../server/lib/request-facts.ts";
import { z } from "zod";
import { noContent } from "../../server/lib/operation.ts";
import { currentUserAnswer, signIn } from "../accounts/api.ts";
import type { Delivery } from "../delivery/message.ts";
import { sendLoginCode } from "./login-code.ts";
import { sendPasswordResetCode, setPasswordWithToken, verifyPasswordResetCode } from "./password-reset.ts";
import {
  loginCodeSendSchema,
  passwordResetSendCodeSchema,
  passwordResetSetSchema,
  passwordResetVerifySchema,
  smsLoginSchema,
  smsSendCodeSchema,
} from "./schema.ts";
import type { CodeServices, Requester } from "./service.ts";
import { logInBySms, sendSmsLoginCode } from "./sms-login.ts";

export interface VerificationApiOptions {
  delivery: Delivery;
  sessionSecret: string;
  captcha: boolean;
  /** The time codes are checked against (tests move it instead of sleeping). */
  clock?: () => Date;
}

/** A code went out: when another may be asked for and how long this one holds. */
const codeSentAnswer = z.strictObject({ resend_after: z.number(), expires_in: z.number() });

const requesterOf = (request: FastifyRequest): Requester => ({ ...clientOf(request), locale: request.locale });

/** SMS sign-in, the puzzle's alternative and password reset: everything that sends or checks a code. */
export async function verificationApi(app: FastifyInstance, options: VerificationApiOptions): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const services: CodeServices = { db: app.db, delivery: options.delivery, secret: options.sessionSecret, captcha: options.captcha };
  const now = () => options.clock?.() ?? new Date();

  api.post("/api/Users/sms/send_code/", { schema: { body: smsSendCodeSchema, response: { 200: codeSentAnswer } } }, async (request) =>
    sendSmsLoginCode(services, request.body, requesterOf(request), now()),
  );

  api.post(
    "/api/Users/sms/login/",
    { schema: { body: smsLoginSchema, response: { 200: currentUserAnswer, 201: currentUserAnswer } } },
    async (request, reply) => {
      const signedIn = await logInBySms(services, request.body, requesterOf(request), now());
      return signIn(reply.status(signedIn.created ? 201 : 200), request, signedIn, options.sessionSecret);
    },
  );

  api.post("/api/Users/login_code/send/", { schema: { body: loginCodeSendSchema, response: { 200: codeSentAnswer } } }, async (request) =>
    sendLoginCode(services, request.body, requesterOf(request), now()),
  );

  api.post(
    "/api/Users/password_reset/send_code/",
    { schema: { body: passwordResetSendCodeSchema, response: { 200: codeSentAnswer } } },
    async (request) => sendPasswordResetCode(services, request.body, requesterOf(request), now()),
  );

  api.post(
    "/api/Users/password_reset/verify/",
    { schema: { body: passwordResetVerifySchema, response: { 200: z.strictObject({ token: z.string(), expires_in: z.number() }) } } },
    async (request, reply) => {
      reply.header("cache-control", "no-store");
      return verifyPasswordResetCode(services, request.body, now());
    },
  );

  api.post(
    "/api/Users/password_reset/set/",
    { schema: { body: passwordResetSetSchema, response: { 204: noContent } } },
    async (request, reply) => {
      await setPasswordWithToken(services, request.body, now());
      return reply.status(204).send(null);
    },
  );
}
