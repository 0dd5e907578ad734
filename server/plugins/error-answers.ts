import type { FastifyReply, FastifyRequest } from "fastify";
import escapeHtml from "escape-html";
import { AppError, presentError } from "../../common/app-error.ts";
import { translator } from "../../common/i18n.ts";
import { localizePath, type Locale } from "../../common/locale.ts";
import { requestLocale } from "./request-context.ts";

/**
 * An error in the shape the request expects: `{ code, message, fields? }` under /api, a small
 * localized page everywhere else (a browser shows it as it is, with the status).
 */
export function answerError(
  request: FastifyRequest,
  reply: FastifyReply,
  error: AppError,
  locale: Locale = requestLocale(request),
): FastifyReply {
  const body = presentError(error, locale);
  reply.status(error.status);
  if (request.url.startsWith("/api/")) return reply.send(body);
  const t = translator(locale);
  const heading = `${error.status} ${escapeHtml(body.message)}`;
  return reply
    .header("cache-control", "no-store")
    .type("text/html; charset=utf-8")
    .send(
      `<!doctype html><html lang="${locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${heading} - ${escapeHtml(t("site.name"))}</title></head>` +
        `<body style="font-family:system-ui,sans-serif;text-align:center;padding:64px 16px"><h1>${error.status}</h1><p>${escapeHtml(body.message)}</p><p><a href="${localizePath("/", locale)}">${escapeHtml(t("error.return_home"))}</a></p></body></html>`,
    );
}

/** Requests Fastify cannot route at all (a path with broken percent-encoding): a localized 400. */
export function answerUnparsableRequest(_error: Error, request: FastifyRequest, reply: FastifyReply): void {
  reply.header("cache-control", "no-store");
  void answerError(request, reply, new AppError("bad_request"));
}
