import { randomBytes } from "node:crypto";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import fastifyStatic from "@fastify/static";
import { createRequest, sendResponse } from "@mcansh/react-router-fastify";
import { createRequestHandler, RouterContextProvider, type ServerBuild } from "react-router";
import { appContext } from "../../app/context.ts";
import { languageCookie, languageCookieMaxAge, languageSwitchTarget, localeFromPath, pagePathname } from "../../common/locale.ts";
import { isSecure } from "../lib/request-facts.ts";
import { assertSingleInstances } from "../lib/single-instance.ts";
import { withDomainErrors } from "./page-errors.ts";
import { sessionCookieName } from "../../features/accounts/cookies.server.ts";
import type { Config } from "../config.ts";
import type { Database } from "../db/client.ts";
import type { Delivery } from "../../features/delivery/message.ts";
import { compressForCache, isAnonymousRequest, isCacheable, pageCacheKey, type PageCache } from "./page-cache.ts";
import { onInvalidate } from "../lib/invalidation.ts";

export interface PagesOptions {
  /** Folder holding `server/index.js` and `client/` from `react-router build`. */
  buildDirectory: string;
  /** Replay anonymous pages from memory (on in production); hits are served in server/app.ts. */
  cache?: PageCache;
}

/**
 * React Router pages inside Fastify. Request/response adaptation comes from
 * @mcansh/react-router-fastify; in front of it sits the anonymous page cache.
 */
export async function pages(app: FastifyInstance, options: PagesOptions & { config: Config; db: Database; delivery: Delivery }): Promise<void> {
  const { buildDirectory, config, db, delivery } = options;
  const build = withDomainErrors((await import(pathToFileURL(path.join(buildDirectory, "server", "index.js")).href)) as ServerBuild);
  assertSingleInstances();
  const handle = createRequestHandler(build, config.production ? "production" : "development");
  const cache = options.cache;
  if (cache) {
    const stop = onInvalidate((tags) => cache.evictTags(tags));
    app.addHook("onClose", async () => stop());
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

  // React Router reads request bodies itself.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("*", (_request, payload, done) => done(null, payload));

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

  app.all("*", async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.url.startsWith("/api/")) return app.apiNotFound(request, reply);
    const anonymous = isAnonymousRequest(request.headers.cookie);
    const cacheable = cache && anonymous && request.method === "GET";

    const context = new RouterContextProvider();
    const cacheTags = new Set<string>();
    context.set(appContext, {
      db,
      viewer: anonymous ? null : await request.viewer(),
      sessionToken: request.cookies[sessionCookieName],
      locale: localeFromPath(pagePathname(request.url.split("?")[0] ?? "/")),
      client: { ip: request.ip, userAgent: request.headers["user-agent"] ?? "" },
      secure: isSecure(request),
      production: config.production,
      sessionSecret: config.sessionSecret,
      captcha: config.captcha,
      delivery,
      cookies: request.cookies,
      nonce: randomBytes(16).toString("base64"),
      cacheTags,
    });
    const response = await handle(createRequest(request, reply), context);

    if (cacheable && isCacheable(response)) {
      const body = Buffer.from(await response.arrayBuffer());
      reply.status(response.status).headers(Object.fromEntries(response.headers.entries())).header("vary", "Accept-Encoding");
      const headers: Record<string, string | string[] | number> = { ...(reply.getHeaders() as Record<string, string | string[]>), "x-page-cache": "hit" };
      delete headers["content-length"];
      const flat = Object.entries(headers).flatMap(([name, value]) => (Array.isArray(value) ? value.flatMap((item) => [name, item]) : [name, String(value)]));
      const key = pageCacheKey(request.url, request.headers);
      const compressed = await compressForCache(body);
      cache.set(key, { status: response.status, headers: flat, body, ...compressed, storedAt: Date.now(), tags: [...cacheTags] });
      return reply.header("x-page-cache", "miss").send(body);
    }
    return sendResponse(reply, response);
  });
}
