import type { FastifyReply, FastifyRequest } from "fastify";
import escapeHtml from "escape-html";
import { AppError, presentError } from "../../common/app-error.ts";
import { translator } from "../../common/i18n.ts";
import { localizePath } from "../../common/locale.ts";
import { requestLocale } from "./request-context.ts";

/**
 * Requests Fastify cannot route at all (a path with broken percent-encoding): a localized 400,
 * JSON for the API and a small page for everything else, instead of Fastify's own error shape.
 */
export function answerUnparsableRequest(_error: Error, request: FastifyRequest, reply: FastifyReply): void {
  const api = request.url.startsWith("/api/");
  const locale = requestLocale(request);
  const body = presentError(new AppError("bad_request"), locale);
  reply.status(400).header("cache-control", "no-store");
  if (api) {
    void reply.send(body);
    return;
  }
  const t = translator(locale);
  const title = `400 ${escapeHtml(body.message)}`;
  void reply
    .type("text/html; charset=utf-8")
    .send(
      `<!doctype html><html lang="${locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title} - ${escapeHtml(t("site.name"))}</title></head>` +
        `<body style="font-family:system-ui,sans-serif;text-align:center;padding:64px 16px"><h1>400</h1><p>${escapeHtml(body.message)}</p><p><a href="${localizePath("/", locale)}">${escapeHtml(t("error.return_home"))}</a></p></body></html>`,
    );
}
