import { STATUS_CODES } from "node:http";
import type { Socket } from "node:net";
import type { FastifyReply, FastifyRequest } from "fastify";
import escapeHtml from "escape-html";
import { AppError, presentError } from "../../common/app-error.ts";
import { translator } from "../../common/i18n.ts";
import { localeFromPath, localizePath, negotiateLocale, type Locale } from "../../common/locale.ts";
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
  return reply.header("cache-control", "no-store").type("text/html; charset=utf-8").send(errorPage(error, locale));
}

/** The small page an error gets outside /api (no scripts, no styles of ours: it must work when nothing else does). */
function errorPage(error: AppError, locale: Locale): string {
  const t = translator(locale);
  const message = escapeHtml(presentError(error, locale).message);
  return (
    `<!doctype html><html lang="${locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${error.status} ${message} - ${escapeHtml(t("site.name"))}</title></head>` +
    `<body style="font-family:system-ui,sans-serif;text-align:center;padding:64px 16px"><h1>${error.status}</h1><p>${message}</p><p><a href="${localizePath("/", locale)}">${escapeHtml(t("error.return_home"))}</a></p></body></html>`
  );
}

/** Requests Fastify cannot route at all (a path with broken percent-encoding): a localized 400. */
export function answerUnparsableRequest(_error: Error, request: FastifyRequest, reply: FastifyReply): void {
  reply.header("cache-control", "no-store");
  void answerError(request, reply, new AppError("bad_request"));
}

const requestLine = /^([A-Z]+) (\/[^ \r\n]*) HTTP\/1\.[01]\r?\n/;

/**
 * Requests Node's HTTP parser refuses before Fastify sees them (Fastify's own answer is bare
 * English JSON). A path or query with raw UTF-8 bytes (`/search?q=数学` as some clients send it)
 * is accepted: a GET is redirected to the same URL percent-encoded. Anything else gets the
 * localized 400 (a timeout 408, oversized headers 431), as a page, or as JSON under /api.
 */
export function answerClientError(error: Error & { code?: string; rawPacket?: unknown }, socket: Socket): void {
  if (error.code === "ECONNRESET" || socket.destroyed) return;
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  // Node hands the bytes it read as a Buffer (Fastify's type says otherwise).
  const raw = Buffer.isBuffer(error.rawPacket) ? error.rawPacket : Buffer.alloc(0);
  const line = requestLine.exec(raw.toString("latin1"));
  const [method, target] = line ? [line[1]!, line[2]!] : ["", "/"];
  if (error.code === "HPE_INVALID_URL" && (method === "GET" || method === "HEAD")) {
    const encoded = percentEncodeRaw(Buffer.from(target, "latin1"));
    if (/^\/(?!\/)[\x21-\x7e]*$/.test(encoded)) {
      socket.end(`HTTP/1.1 302 Found\r\nLocation: ${encoded}\r\nContent-Length: 0\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n`);
      return;
    }
  }
  const code =
    error.code === "ERR_HTTP_REQUEST_TIMEOUT"
      ? "request_timeout"
      : error.code === "HPE_HEADER_OVERFLOW"
        ? "headers_too_large"
        : "bad_request";
  const appError = new AppError(code);
  const path = target.split("?")[0]!;
  const api = path.startsWith("/api/");
  const acceptLanguage = /\r\naccept-language: *([^\r\n]*)/i.exec(raw.toString("latin1"))?.[1];
  const locale = api ? negotiateLocale(undefined, acceptLanguage) : localeFromPath(path);
  const body = Buffer.from(api ? JSON.stringify(presentError(appError, locale)) : errorPage(appError, locale));
  const type = api ? "application/json; charset=utf-8" : "text/html; charset=utf-8";
  socket.end(
    `HTTP/1.1 ${appError.status} ${STATUS_CODES[appError.status]}\r\nContent-Type: ${type}\r\nContent-Length: ${body.length}\r\n` +
      `Cache-Control: no-store\r\nConnection: close\r\n\r\n${body.toString("latin1")}`,
    "latin1",
  );
}

/** Bytes a URL may not carry as they are (non-ASCII, controls, space, quotes, angle brackets), as %XX. */
function percentEncodeRaw(bytes: Buffer): string {
  let encoded = "";
  for (const byte of bytes) {
    const safe = byte > 0x20 && byte < 0x7f && byte !== 0x22 && byte !== 0x3c && byte !== 0x3e && byte !== 0x60;
    encoded += safe ? String.fromCharCode(byte) : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return encoded;
}
