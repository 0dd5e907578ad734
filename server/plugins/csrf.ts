import fp from "fastify-plugin";
import { csrfCookieName, csrfHeaderName, csrfMatches, sessionCookieName } from "../../features/accounts/cookies.server.ts";
import { AppError } from "../../common/app-error.ts";

const safeMethods = new Set(["GET", "HEAD", "OPTIONS"]);

declare module "fastify" {
  interface FastifyContextConfig {
    /** A page route (the catch-all, or a page with a larger body limit): its action reads and checks its own form. */
    pageRoute?: boolean;
    /** A provider's callback authenticated by its own signature (payment notifies): no cookie, no CSRF token. */
    signedCallback?: boolean;
  }
}

/**
 * Every unsafe request to a route of ours carries the csrftoken cookie's value in X-CSRFToken, and
 * that token is bound to the request's session, or it gets 403. Page form posts (page routes, `config.pageRoute`) check the token in their form field instead.
 * The decision follows the matched route, not the raw URL, so "/%61pi/…" cannot slip past it.
 */
export const csrfProtection = fp<{ secret: string }>(async (app, { secret }) => {
  app.addHook("onRequest", async (request) => {
    if (safeMethods.has(request.method) || request.routeOptions.config?.pageRoute || request.routeOptions.config?.signedCallback) return;
    const header = request.headers[csrfHeaderName];
    if (
      !csrfMatches(
        secret,
        request.cookies[csrfCookieName],
        typeof header === "string" ? header : undefined,
        request.cookies[sessionCookieName],
      )
    ) {
      throw new AppError("csrf_failed");
    }
  });
});
