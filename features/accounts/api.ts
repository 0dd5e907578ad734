import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { createCsrfToken, csrfCookie, csrfCookieName, isValidCsrfToken, sessionCookieName, signedInCookies, signedOutCookies } from "./cookies.server.ts";
import { anonymousUser, authAnonymousCode, authSuccessCode, presentCurrentUser } from "./presenter.ts";
import { loginSchema, registerSchema } from "./schema.ts";
import { getUser, logIn, logOut, registerUser, type SignedIn } from "./service.ts";
import { clientOf, isSecure } from "../../server/lib/request-facts.ts";

export interface AccountsApiOptions {
  sessionSecret: string;
  captcha: boolean;
  signupsPerHour: number;
}

export async function accountsApi(app: FastifyInstance, { sessionSecret, captcha, signupsPerHour }: AccountsApiOptions): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const signIn = (reply: FastifyReply, request: FastifyRequest, signedIn: SignedIn) => {
    // A new session, and a CSRF token bound to it: the one the client had before no longer works.
    reply.header("set-cookie", signedInCookies(sessionSecret, signedIn.token, { persistent: signedIn.persistent, secure: isSecure(request) }));
    reply.header("cache-control", "no-store");
    return { code: authSuccessCode, ...presentCurrentUser(signedIn.user) };
  };

  api.get("/api/get_csrf_token/", async (request, reply) => {
    const existing = request.cookies[csrfCookieName];
    const session = request.cookies[sessionCookieName];
    const token = isValidCsrfToken(sessionSecret, existing, session) ? existing : createCsrfToken(sessionSecret, session);
    reply.header("set-cookie", csrfCookie(token, isSecure(request))).header("cache-control", "no-store");
    return { csrftoken: token };
  });

  api.post("/api/Users/register/", { schema: { body: registerSchema } }, async (request, reply) => {
    const signedIn = await registerUser({ db: app.db }, request.body, clientOf(request), { captcha, signupsPerHour, replacing: request.cookies[sessionCookieName] });
    return signIn(reply.status(201), request, signedIn);
  });

  api.post("/api/Users/login/", { schema: { body: loginSchema } }, async (request, reply) => {
    const signedIn = await logIn(app.db, request.body, clientOf(request), { captcha, replacing: request.cookies[sessionCookieName] });
    return signIn(reply, request, signedIn);
  });

  api.post("/api/Users/logout/", { schema: { body: z.strictObject({}).nullish() } }, async (request, reply) => {
    await logOut(app.db, request.cookies[sessionCookieName]);
    reply.header("set-cookie", signedOutCookies(sessionSecret, isSecure(request)));
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

