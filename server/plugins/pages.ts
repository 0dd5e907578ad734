import { randomBytes } from "node:crypto";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import fastifyStatic from "@fastify/static";
import { createRequest, sendResponse } from "@mcansh/react-router-fastify";
import { createRequestHandler, RouterContextProvider, type ServerBuild } from "react-router";
import { appContext } from "../../app/context.ts";
import {
  languageCookie,
  languageCookieMaxAge,
  languageSwitchTarget,
  localeFromPath,
  localizePath,
  pagePathname,
} from "../../common/locale.ts";
import { AppError } from "../../common/app-error.ts";
import { isSecure } from "../lib/request-facts.ts";
import { assertSingleInstances } from "../lib/single-instance.ts";
import { withDomainErrors } from "./page-errors.ts";
import { sessionCookieName } from "../../features/accounts/cookies.server.ts";
import type { Config } from "../config.ts";
import type { Database } from "../db/client.ts";
import type { Delivery } from "../../features/delivery/message.ts";
import type { FileStore } from "../../features/attachments/file-store.server.ts";
import { maxImageBytes } from "../../features/attachments/constants.ts";
import { editorFormMaxBytes } from "../../features/writings/editor-values.ts";
import { compressForCache, findNonceSlots, isAnonymousRequest, isCacheable, pageCacheKey, type PageCache } from "./page-cache.ts";
import { onInvalidate, onResync } from "../lib/invalidation.ts";

export interface PagesOptions {
  /** Folder holding `server/index.js` and `client/` from `react-router build`. */
  buildDirectory: string;
  /** Replay anonymous pages from memory (on in production); hits are served in server/app.ts. */
  cache?: PageCache;
  /** Receives the page handler, so other routes can answer with a page (the 404 screen of /attach). */
  onReady?: (render: PageRenderer) => void;
  /** Body limits of pages that take more than a small form; `pageBodyLimits` unless given. */
  bodyLimits?: Record<string, number>;
  /** Wraps the loaded build before use (the benchmark's baseline keeps what the document renderer receives). */
  wrapBuild?: (build: ServerBuild) => ServerBuild;
}

export type PageRenderer = (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

/**
 * React Router pages inside Fastify. Request/response adaptation comes from
 * @mcansh/react-router-fastify; in front of it sits the anonymous page cache.
 */
export async function pages(
  app: FastifyInstance,
  options: PagesOptions & { config: Config; db: Database; delivery: Delivery; files: FileStore; now: () => Date },
): Promise<void> {
  const { buildDirectory, config, db, delivery, files, now } = options;
  const loaded = withDomainErrors((await import(pathToFileURL(path.join(buildDirectory, "server", "index.js")).href)) as ServerBuild);
  const build = options.wrapBuild ? options.wrapBuild(loaded) : loaded;
  assertSingleInstances();
  const handle = createRequestHandler(build, config.production ? "production" : "development");
  const cache = options.cache;
  if (cache) {
    const stop = onInvalidate((tags) => cache.evictTags(tags));
    const stopResync = onResync(() => cache.clear());
    app.addHook("onClose", async () => {
      stop();
      stopResync();
      cache.close();
    });
  }
  const clientDirectory = path.join(buildDirectory, "client");

  await app.register(fastifyStatic, {
    root: clientDirectory,
    prefix: "/",
    wildcard: false,
    preCompressed: true,
    dotfiles: "ignore",
    cacheControl: false,
    setHeaders(reply, filePath) {
      const immutable = filePath.startsWith(path.join(clientDirectory, "assets"));
      reply.header("cache-control", immutable ? "public, max-age=31536000, immutable" : "public, max-age=3600");
    },
  });

  // Page forms arrive as a whole buffer of at most the route's body limit (64 KiB unless a page
  // asks for more, see `pageBodyLimits`): a larger body is refused with 413 before it is read on,
  // and before any CSRF check or rendering work. React Router parses the form from that buffer.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("*", { parseAs: "buffer" }, (_request, body, done) => done(null, body));

  /** The running build's id, polled by clients to notice a new release. */
  app.get("/build-manifest.json", async (_request, reply) => {
    reply.header("cache-control", "no-store");
    return { buildId: build.assets.version };
  });

  /** Remembers the language choice for 365 days and goes to the same page in that language. */
  app.get("/set-language", async (request, reply) => {
    const { lang, next } = request.query as { lang?: unknown; next?: unknown };
    const { locale, path: target } = languageSwitchTarget(lang, next);
    const secure = isSecure(request) ? "; Secure" : "";
    reply.header("set-cookie", `${languageCookie}=${locale}; Max-Age=${languageCookieMaxAge}; Path=/; SameSite=Lax${secure}`);
    return reply.redirect(target, 302);
  });

  const renderPage = async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.url.startsWith("/api/")) return app.apiNotFound(request, reply);
    // The Fetch API's Request (what React Router takes) refuses TRACE, CONNECT and TRACK outright,
    // and pages have nothing to say to other methods than these.
    if (!pageMethods.has(request.method)) {
      reply.header("allow", [...pageMethods].join(", "));
      throw new AppError("method_not_allowed");
    }
    // The page URL is built from the Host the request names; one that makes no URL (or none at all,
    // as HTTP/1.0 allows) is the client's mistake.
    if (!isUsableHost(request.host)) throw new AppError("bad_request");
    const anonymous = isAnonymousRequest(request.headers.cookie);
    const cacheable = cache && anonymous && request.method === "GET";

    const context = new RouterContextProvider();
    const cacheTags = new Set<string>();
    const nonce = randomBytes(16).toString("base64");
    // Reads only (GET): the read replica when it has replayed what this viewer must see
    // (server/lib/read-routing.ts); an anonymous visitor's whole page reads from it.
    const readDb = request.method === "GET" ? await request.readDb() : db;
    context.set(appContext, {
      db: anonymous ? readDb : db,
      readDb,
      files,
      now,
      viewer: anonymous ? null : await request.viewer(),
      sessionToken: request.cookies[sessionCookieName],
      locale: localeFromPath(pagePathname(request.url.split("?")[0] ?? "/")),
      client: { ip: request.ip, userAgent: request.headers["user-agent"] ?? "" },
      secure: isSecure(request),
      production: config.production,
      sessionSecret: config.sessionSecret,
      captcha: config.captcha,
      signupsPerHour: config.signupsPerHour,
      delivery,
      cookies: request.cookies,
      settings: app.operationSettings,
      nonce,
      cacheTags,
    });
    const response = await handle(createRequest(request, reply), context);

    if (cacheable && isCacheable(response)) {
      const body = Buffer.from(await response.arrayBuffer());
      reply.status(response.status).headers(Object.fromEntries(response.headers.entries())).header("vary", "Accept-Encoding");
      const headers: Record<string, string | string[] | number> = {
        ...(reply.getHeaders() as Record<string, string | string[]>),
        "x-page-cache": "hit",
      };
      delete headers["content-length"];
      const flat = Object.entries(headers).flatMap(([name, value]) =>
        Array.isArray(value) ? value.flatMap((item) => [name, item]) : [name, String(value)],
      );
      // A page above the size cap is sent but never kept (nor compressed for keeping).
      if (!cache.accepts(body.length)) return reply.send(body);
      const key = pageCacheKey(request.url, request.headers);
      // The nonce this answer carries is the placeholder later answers replace with their own.
      const nonceSlots = findNonceSlots(nonce, flat, body);
      const compressed = await compressForCache(body, nonceSlots);
      cache.set(key, {
        status: response.status,
        headers: flat,
        body,
        ...compressed,
        nonce: nonceSlots,
        storedAt: Date.now(),
        tags: [...cacheTags],
      });
      return reply.header("x-page-cache", "miss").send(body);
    }
    // A document is rendered in one piece (app/entry.server.tsx): read it whole and write it once.
    if (response.body && response.headers.get("content-type")?.startsWith("text/html")) {
      const body = Buffer.from(await response.arrayBuffer());
      reply.status(response.status);
      const cookies = response.headers.getSetCookie();
      for (const [name, value] of response.headers) if (name !== "set-cookie") reply.header(name, value);
      if (cookies.length > 0) reply.header("set-cookie", cookies);
      return reply.send(body);
    }
    return sendResponse(reply, response);
  };
  options.onReady?.(renderPage);

  await app.register(async (pageRoutes) => {
    // Whatever a signed-in viewer is shown carries their data (and a CSRF token): never stored by
    // a browser cache or a proxy, whichever route rendered it. Decided here once, for every page.
    pageRoutes.addHook("onSend", async (request, reply, payload) => {
      if (!isAnonymousRequest(request.headers.cookie)) reply.header("cache-control", "private, no-store");
      return payload;
    });
    for (const [path, bodyLimit] of Object.entries(options.bodyLimits ?? pageBodyLimits)) {
      for (const url of pageRequestPaths(path))
        pageRoutes.route({ method: [...pageMethods], url, bodyLimit, config: { pageRoute: true }, handler: renderPage });
    }
    // Every method Fastify knows, so that foreign ones reach `renderPage` and get a proper 405.
    pageRoutes.all("*", { bodyLimit: pageFormBodyLimit, config: { pageRoute: true } }, renderPage);
  });
}

/** What page forms (login, register, later writing) may send: plenty for text, a wall against floods. */
export const pageFormBodyLimit = 64 * 1024;

/**
 * Pages whose forms may send more than `pageFormBodyLimit` (uploads), by path without the language
 * prefix: `{ "/write/upload": 20 * 1024 * 1024 }`. Each gets its own route with that limit, in both
 * languages and for React Router's data requests.
 */
export const pageBodyLimits: Record<string, number> = {
  // The avatar form: one image of at most 2 MB, plus the multipart framing and the CSRF field.
  "/account/avatar": maxImageBytes + 16 * 1024,
  // A private message: its text and an image of at most 2 MB.
  "/messages/chat/:username": maxImageBytes + 16 * 1024,
  // Circle forms carry the logo (2 MB) beside their texts.
  "/circles/new": maxImageBytes + 16 * 1024,
  "/circles/:circleId/new": maxImageBytes + 16 * 1024,
  "/circles/:circleId/settings": maxImageBytes + 16 * 1024,
  // The writing editor: a 200 KiB Markdown body, percent-encoded (up to 3× for CJK text), plus the
  // other fields, and the cover as a file when posted without JavaScript (multipart).
  "/circles/:circleId/write/article": editorFormMaxBytes + 16 * 1024,
  "/circles/:circleId/post": editorFormMaxBytes + 16 * 1024,
  // Book forms: the cover (2 MB) and the texts, sent as multipart.
  "/circles/:circleId/write/book": maxImageBytes + 48 * 1024,
  "/circles/:circleId/write/book/:bookId": maxImageBytes + 48 * 1024,
  // A chapter: up to 200 KiB of Markdown, which URL-encoding can triple (Chinese text), and a preview.
  "/circles/:circleId/write/book/:bookId/add-chapter": 1024 * 1024,
  "/circles/:circleId/write/book/:bookId/chapter/:chapterId": 1024 * 1024,
  // The entry editor: the Markdown body and references, and a photo (2 MB) when one is chosen (multipart).
  "/circles/:circleId/encyclopedia/write": editorFormMaxBytes + maxImageBytes + 48 * 1024,
  "/circles/:circleId/encyclopedia/:entryId/edit": editorFormMaxBytes + maxImageBytes + 48 * 1024,
};

const pageMethods = new Set(["GET", "HEAD", "POST"]);

declare module "fastify" {
  interface FastifyContextConfig {
    /** A page route: its actions check the CSRF token in the form (see csrf.ts). */
    page?: boolean;
  }
}

/** The URLs a page answers on: both languages, and React Router's data URLs for loaders and actions. */
export function pageRequestPaths(path: string): string[] {
  const english = localizePath(path, "en");
  return [path, `${path}.data`, english, `${english}.data`];
}

/** A Host header that makes a URL with nothing but a host and port in it. */
function isUsableHost(host: string | undefined): boolean {
  if (!host) return false;
  try {
    const url = new URL(`http://${host}/`);
    return url.pathname === "/" && !url.search && !url.hash && !url.username && !url.password;
  } catch {
    return false;
  }
}
