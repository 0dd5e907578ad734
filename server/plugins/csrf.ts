import fp from "fastify-plugin";
import { csrfCookieName, csrfHeaderName, csrfMatches } from "../../features/accounts/cookies.server.ts";
import { AppError } from "../lib/app-error.ts";

const safeMethods = new Set(["GET", "HEAD", "OPTIONS"]);

/** Every unsafe API request carries the csrftoken cookie's value in X-CSRFToken, or gets 403. */
export const csrfProtection = fp<{ secret: string }>(async (app, { secret }) => {
  app.addHook("onRequest", async (request) => {
    if (safeMethods.has(request.method) || !request.url.startsWith("/api/")) return;
    const header = request.headers[csrfHeaderName];
    if (!csrfMatches(secret, request.cookies[csrfCookieName], typeof header === "string" ? header : undefined)) {
      throw new AppError("csrf_failed");
    }
  });
});
