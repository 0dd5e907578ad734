import fp from "fastify-plugin";
import type { FastifyRequest } from "fastify";
import { parseCookie, stringifySetCookie } from "cookie";
import { findSessionViewer } from "../../features/accounts/service.ts";
import type { Viewer } from "../../features/accounts/viewer.ts";
import { sessionCookieName } from "../../features/accounts/cookies.server.ts";
import { languageCookie, localeFromPath, negotiateLocale, type Locale } from "../../common/locale.ts";
import type { Database } from "../db/client.ts";
import { positionCookieName, positionCookieSeconds, type ReadRouting } from "../lib/read-routing.ts";
import { isSecure } from "../lib/request-facts.ts";
import { runInRequestScope } from "../lib/request-scope.ts";

declare module "fastify" {
  interface FastifyRequest {
    /** The viewer's language for API messages: page path (Referer), then `lang` cookie, then Accept-Language. */
    locale: Locale;
    /** The signed-in viewer (presented, never the users row), looked up once per request. */
    viewer(): Promise<Viewer | null>;
    /**
     * The database for reads that tolerate a short lag: the read replica once it has replayed this
     * viewer's own last write and what this process was told changed; otherwise (or without a
     * replica) the primary. Never for writes.
     */
    readDb(): Promise<Database>;
  }
  interface FastifyInstance {
    db: Database;
    /** Set when DATABASE_REPLICA_URL names a streaming replica (server/lib/read-routing.ts). */
    readRouting: ReadRouting | undefined;
  }
}

export const requestContext = fp<{ db: Database; readRouting?: ReadRouting | undefined }>(async (app, { db, readRouting }) => {
  app.decorate("db", db);
  app.decorate("readRouting", readRouting);
  app.decorateRequest("readDb", async function readDb() {
    return db;
  });
  app.decorateRequest("locale", "zh-CN");
  app.decorateRequest("viewer", async function viewer() {
    return null;
  });
  app.addHook("onRequest", async (request) => {
    request.locale = requestLocale(request);
    let cached: Promise<Viewer | null> | undefined;
    request.viewer = () => (cached ??= findSessionViewer(db, request.cookies[sessionCookieName]));
    if (readRouting) request.readDb = () => readRouting.forRead(request.cookies[positionCookieName]);
  });
  // A signed-in user's successful write answers with the primary's position after it: their own
  // reads wait for the replica to replay that far (server/lib/read-routing.ts).
  if (readRouting)
    app.addHook("onSend", async (request, reply, payload) => {
      if (request.method === "GET" || request.method === "HEAD" || reply.statusCode >= 400) return payload;
      if (!request.cookies[sessionCookieName] && !reply.getHeader("set-cookie")?.toString().includes(`${sessionCookieName}=`))
        return payload;
      try {
        const position = await readRouting.primaryPosition();
        const cookie = stringifySetCookie({
          name: positionCookieName,
          value: position,
          maxAge: positionCookieSeconds,
          path: "/",
          httpOnly: true,
          sameSite: "lax",
          secure: isSecure(request),
        });
        const existing = reply.getHeader("set-cookie");
        reply.header("set-cookie", [...(Array.isArray(existing) ? existing : existing ? [String(existing)] : []), cookie]);
      } catch {
        // The primary could not say: the user's next reads still go by what this process knows.
      }
      return payload;
    });
  // Writes run in a request scope (who asks, whether they are still there) for the render queue.
  // Entered after the body is read: a scope entered earlier would be lost across the body's stream events.
  app.addHook("preValidation", (request, reply, done) => {
    if (request.method === "GET" || request.method === "HEAD") return done();
    const gone = new AbortController();
    reply.raw.once("close", () => {
      if (!reply.raw.writableFinished) gone.abort();
    });
    const owner = async () => {
      const viewer = await request.viewer();
      return viewer ? `user:${viewer.id}` : `ip:${request.ip}`;
    };
    runInRequestScope({ owner, signal: gone.signal }, done);
  });
});

/**
 * The language to answer in: a page path's own; for the API the page it was called from (Referer),
 * then the `lang` cookie, then Accept-Language. Also used before the cookie plugin has run (for
 * requests Fastify cannot route), so the cookie header is read directly then.
 */
export function requestLocale(request: FastifyRequest): Locale {
  const path = request.url.split("?")[0] ?? "/";
  if (!path.startsWith("/api/")) return localeFromPath(path);
  const referer = request.headers.referer;
  if (referer) {
    try {
      const url = new URL(referer);
      if (url.hostname === request.hostname) return localeFromPath(url.pathname);
    } catch {
      // An unparsable Referer says nothing about the language.
    }
  }
  const cookies = (request.cookies as FastifyRequest["cookies"] | undefined) ?? parseCookie(request.headers.cookie ?? "");
  return negotiateLocale(cookies[languageCookie], request.headers["accept-language"]);
}
