import fp from "fastify-plugin";
import { csrfCookieName, csrfHeaderName, csrfMatches, sessionCookieName } from "../../features/accounts/cookies.server.ts";
import { AppError } from "../../common/app-error.ts";

const safeMethods = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Every unsafe request to a route of ours carries the csrftoken cookie's value in X-CSRFToken, and
 * that token is bound to the request's session, or it gets 403. Page form posts (the catch-all "*" route) check the token in their form field instead.
 * The decision follows the matched route, not the raw URL, so "/%61pi/…" cannot slip past it.
 */
export const csrfProtection = fp<{ secret: string }>(async (app, { secret }) => {
  app.addHook("onRequest", async (request) => {
    if (safeMethods.has(request.method) || request.routeOptions.url === "*") return;
    const header = request.headers[csrfHeaderName];
    if (!csrfMatches(secret, request.cookies[csrfCookieName], typeof header === "string" ? header : undefined, request.cookies[sessionCookieName])) {
      throw new AppError("csrf_failed");
    }
  });
});
