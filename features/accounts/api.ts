import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  createCsrfToken,
  csrfCookie,
  csrfCookieName,
  isValidCsrfToken,
  sessionCookieName,
  signedInCookies,
  signedOutCookies,
} from "./cookies.server.ts";
import { anonymousUser, authAnonymousCode, authSuccessCode, presentCurrentUser } from "./presenter.ts";
import { loginSchema, registerSchema } from "./schema.ts";
import { findSessionUser, logIn, logOut, registerUser, type SignedIn } from "./service.ts";
import { clientOf, isSecure } from "../../server/lib/request-facts.ts";
import { logInWithCode } from "../verification/login-code.ts";
import { noContent } from "../../server/lib/operation.ts";

export interface AccountsApiOptions {
  sessionSecret: string;
  captcha: boolean;
  signupsPerHour: number;
}

/** The signed-in user as every sign-in and `LoginAuth` answer it (`code` 100; 0 and an empty user for visitors). */
export const currentUserAnswer = z.strictObject({
  code: z.number(),
  user_id: z.number(),
  user_type: z.string(),
  avatar: z.string(),
  avatar_small: z.string(),
  username: z.string(),
  nickname: z.string(),
  email: z.string(),
  date: z.string(),
  sex: z.string(),
  self_description: z.string(),
  intelligence_score: z.number(),
  gold: z.number(),
  sinecoin: z.number(),
  school: z.string(),
  profession: z.string(),
  Hogwarts_school: z.string(),
  sinecoin_total_profit: z.number(),
  sinecoin_total_cashout: z.number(),
  cashoutable_sinecoin_profit: z.number(),
});

export async function accountsApi(app: FastifyInstance, { sessionSecret, captcha, signupsPerHour }: AccountsApiOptions): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get("/api/get_csrf_token/", { schema: { response: { 200: z.strictObject({ csrftoken: z.string() }) } } }, async (request, reply) => {
    const existing = request.cookies[csrfCookieName];
    const session = request.cookies[sessionCookieName];
    const token = isValidCsrfToken(sessionSecret, existing, session) ? existing : createCsrfToken(sessionSecret, session);
    reply.header("set-cookie", csrfCookie(token, isSecure(request))).header("cache-control", "no-store");
    return { csrftoken: token };
  });

  api.post("/api/Users/register/", { schema: { body: registerSchema, response: { 201: currentUserAnswer } } }, async (request, reply) => {
    const signedIn = await registerUser({ db: app.db }, request.body, clientOf(request), {
      captcha,
      signupsPerHour,
      replacing: request.cookies[sessionCookieName],
    });
    return signIn(reply.status(201), request, signedIn, sessionSecret);
  });

  api.post("/api/Users/login/", { schema: { body: loginSchema, response: { 200: currentUserAnswer } } }, async (request, reply) => {
    const { login_code: loginCode } = request.body;
    // A code sent to the account (for people who cannot solve the puzzle) stands in for the puzzle.
    const signedIn = loginCode
      ? await logInWithCode(
          { db: app.db, secret: sessionSecret },
          { ...request.body, login_code: loginCode },
          { ...clientOf(request), locale: request.locale },
        )
      : await logIn(app.db, request.body, clientOf(request), { captcha, replacing: request.cookies[sessionCookieName] });
    return signIn(reply, request, signedIn, sessionSecret);
  });

  api.post(
    "/api/Users/logout/",
    { schema: { body: z.strictObject({}).nullish(), response: { 204: noContent } } },
    async (request, reply) => {
      await logOut(app.db, request.cookies[sessionCookieName]);
      reply.header("set-cookie", signedOutCookies(sessionSecret, isSecure(request)));
      return reply.status(204).send(null);
    },
  );

  api.get("/api/Users/LoginAuth/", { schema: { response: { 200: currentUserAnswer } } }, async (request, reply) => {
    reply.header("cache-control", "no-store");
    const user = await findSessionUser(app.db, request.cookies[sessionCookieName]);
    if (!user) return { code: authAnonymousCode, ...anonymousUser };
    return { code: authSuccessCode, ...presentCurrentUser(user) };
  });
}

/**
 * The answer to every sign-in: the session cookie, a CSRF token bound to the new session (the one
 * the client had before no longer works) and `{ code: 100, …current user }`.
 */
export function signIn(reply: FastifyReply, request: FastifyRequest, signedIn: SignedIn, sessionSecret: string) {
  reply.header(
    "set-cookie",
    signedInCookies(sessionSecret, signedIn.token, { persistent: signedIn.persistent, secure: isSecure(request) }),
  );
  reply.header("cache-control", "no-store");
  return { code: authSuccessCode, ...presentCurrentUser(signedIn.user) };
}
