import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { clearedSessionCookie, createCsrfToken, csrfCookie, csrfCookieName, isValidCsrfToken, sessionCookie, sessionCookieName } from "./cookies.server.ts";
import { anonymousUser, authAnonymousCode, authSuccessCode, presentCurrentUser } from "./presenter.ts";
import { loginSchema, registerSchema } from "./schema.ts";
import { getUser, logIn, logOut, registerUser, type SignedIn } from "./service.ts";
import { clientOf, isSecure } from "../../server/lib/request-facts.ts";
import { logInWithCode } from "../verification/login-code.ts";

export async function accountsApi(app: FastifyInstance, { sessionSecret, captcha }: { sessionSecret: string; captcha: boolean }): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get("/api/get_csrf_token/", async (request, reply) => {
    const existing = request.cookies[csrfCookieName];
    const token = isValidCsrfToken(sessionSecret, existing) ? existing : createCsrfToken(sessionSecret);
    reply.header("set-cookie", csrfCookie(token, isSecure(request))).header("cache-control", "no-store");
    return { csrftoken: token };
  });

  api.post("/api/Users/register/", { schema: { body: registerSchema } }, async (request, reply) => {
    const signedIn = await registerUser({ db: app.db }, request.body, clientOf(request));
    return signIn(reply.status(201), request, signedIn);
  });

  api.post("/api/Users/login/", { schema: { body: loginSchema } }, async (request, reply) => {
    const { login_code: loginCode } = request.body;
    // A code sent to the account (for people who cannot solve the puzzle) stands in for the puzzle.
    const signedIn = loginCode
      ? await logInWithCode({ db: app.db, secret: sessionSecret }, { ...request.body, login_code: loginCode }, { ...clientOf(request), locale: request.locale })
      : await logIn(app.db, request.body, clientOf(request), { captcha });
    return signIn(reply, request, signedIn);
  });

  api.post("/api/Users/logout/", { schema: { body: z.strictObject({}).nullish() } }, async (request, reply) => {
    await logOut(app.db, request.cookies[sessionCookieName]);
    reply.header("set-cookie", clearedSessionCookie(isSecure(request)));
    return reply.status(204).send();
  });

  api.get("/api/Users/LoginAuth/", async (request, reply) => {
    reply.header("cache-control", "no-store");
    const viewer = await request.viewer();
    const user = viewer && (await getUser(app.db, viewer.id));
    if (!user) return { code: authAnonymousCode, ...anonymousUser };
    return { code: authSuccessCode, ...presentCurrentUser(user) };
  });
}

/** The answer to every sign-in: the session cookie and `{ code: 100, …current user }`. */
export function signIn(reply: FastifyReply, request: FastifyRequest, signedIn: SignedIn) {
  reply.header("set-cookie", sessionCookie(signedIn.token, { persistent: signedIn.persistent, secure: isSecure(request) }));
  reply.header("cache-control", "no-store");
  return { code: authSuccessCode, ...presentCurrentUser(signedIn.user) };
}
