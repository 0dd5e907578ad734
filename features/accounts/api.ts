import type { FastifyInstance } from "fastify";
import { jsonRoute } from "../../server/lib/operation.ts";
import { csrfTokenOperation, loginAuthOperation, logInOperation, logOutOperation, registerOperation } from "./operations.ts";

/** Sign-up, sign-in, sign-out, the CSRF token and "who am I": the session cookies are set by the operations. */
export async function accountsApi(app: FastifyInstance): Promise<void> {
  const tags = ["accounts"];
  jsonRoute(app, "GET", "/api/get_csrf_token/", csrfTokenOperation, {
    tags,
    summary: "A CSRF token bound to the session",
    cache: "no-store",
  });
  jsonRoute(app, "POST", "/api/Users/register/", registerOperation, {
    tags,
    summary: "Create an account and sign in",
    status: 201,
    cache: "no-store",
  });
  jsonRoute(app, "POST", "/api/Users/login/", logInOperation, { tags, summary: "Sign in with a password", cache: "no-store" });
  jsonRoute(app, "POST", "/api/Users/logout/", logOutOperation, { tags, summary: "Sign out", status: 204, cache: "none" });
  jsonRoute(app, "GET", "/api/Users/LoginAuth/", loginAuthOperation, {
    tags,
    summary: "The signed-in user, or code 101",
    cache: "no-store",
  });
}
