import fp from "fastify-plugin";
import type { FastifyError, FastifyReply, FastifyRequest, FastifySchema } from "fastify";
import { hasZodFastifySchemaValidationErrors } from "fastify-type-provider-zod";
import { AppError, presentError, type ErrorCode } from "../../common/app-error.ts";
import { containsUnstorableText } from "../../common/unstorable-text.ts";
import { RouteMethods } from "../lib/route-methods.ts";
import { lingerBeforeClosing } from "../lib/request-bodies.ts";
import { answerError } from "./error-answers.ts";

declare module "fastify" {
  interface FastifyInstance {
    /** Answers an unmatched /api request: 405 with `Allow` when the path exists for other methods, else 404. */
    apiNotFound(request: FastifyRequest, reply: FastifyReply): FastifyReply;
    /** Every /api route as declared, with its schema (the schema-driven fuzz test walks them all). */
    apiRoutes: readonly ApiRoute[];
  }
}

export interface ApiRoute {
  method: string | string[];
  url: string;
  schema: FastifySchema | undefined;
}

/** PostgreSQL's answers to text it cannot store (a NUL, an untranslatable character): bad input, not a fault. */
const badTextCodes = new Set(["22021", "22P05"]);

/**
 * One place turns every failure into `{ code, message }` (a small page outside /api) with the right
 * status; 5xx details stay in the log.
 */
export const errorHandling = fp(async (app) => {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    const appError = toAppError(error);
    if (appError.status >= 500) request.log.error({ err: error }, "request failed");
    if ((appError.status === 429 || appError.status === 503) && appError.params.seconds) {
      reply.header("retry-after", String(appError.params.seconds));
    }
    // JSON under /api; pages (a form body over the limit, a method or Host they cannot take) get a small page.
    return answerError(request, reply, appError, request.locale);
  });
  app.addHook("preValidation", async (request) => {
    // Page bodies are raw bytes here: their forms are checked when read (readForm in app/lib/context.server.ts).
    const body = request.routeOptions.config?.pageRoute ? undefined : request.body;
    if (containsUnstorableText(request.params) || containsUnstorableText(request.query) || containsUnstorableText(body)) {
      throw new AppError("invalid_characters");
    }
  });
  // An answer sent before the request's body arrived (413 from Content-Length, a form refused
  // early) ends the connection: what the client still sends is read and dropped, then it closes.
  app.addHook("onSend", async (request, reply, payload) => {
    if (request.raw.complete === false) {
      reply.header("connection", "close");
      lingerBeforeClosing(request.raw.socket);
    }
    return payload;
  });
  const apiRoutes = new RouteMethods();
  const declared: ApiRoute[] = [];
  app.decorate("apiRoutes", declared);
  app.addHook("onRoute", (route) => {
    if (!route.url.startsWith("/api/")) return;
    apiRoutes.add(route.url, route.method);
    declared.push({ method: route.method, url: route.url, schema: route.schema });
  });
  app.decorate("apiNotFound", (request: FastifyRequest, reply: FastifyReply) => {
    const allowed = apiRoutes.allowed(request.url.split("?")[0] ?? "/");
    if (allowed.length > 0)
      return reply
        .status(405)
        .header("allow", allowed.join(", "))
        .send(presentError(new AppError("method_not_allowed"), request.locale));
    return reply.status(404).send(presentError(new AppError("not_found"), request.locale));
  });
  app.setNotFoundHandler((request, reply) => app.apiNotFound(request, reply));
});

function toAppError(error: FastifyError | AppError): AppError {
  if (error instanceof AppError) return error;
  if (hasZodFastifySchemaValidationErrors(error)) {
    const fields: Record<string, string> = {};
    for (const issue of error.validation) {
      const field = issue.instancePath.split("/").filter(Boolean)[0] ?? "form";
      const message = issue.message ?? "";
      const key = message.includes(":") && !message.includes(" ") ? message : "validation:invalid_value";
      fields[field] ??= issue.keyword === "unrecognized_keys" ? "validation:invalid_value" : key;
    }
    return new AppError("validation_failed", { fields });
  }
  if (badTextCodes.has(String((error as { code?: unknown }).code))) return new AppError("bad_request");
  const status = error.statusCode ?? 500;
  const byStatus: Record<number, ErrorCode> = {
    404: "not_found",
    405: "method_not_allowed",
    413: "payload_too_large",
    415: "unsupported_media_type",
    429: "rate_limited",
  };
  if (byStatus[status]) return new AppError(byStatus[status]);
  if (status >= 400 && status < 500) return new AppError("bad_request");
  return new AppError("internal");
}
