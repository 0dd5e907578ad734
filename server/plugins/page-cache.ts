/** A small in-process cache of anonymous page responses (rendering is ~40x slower than sending bytes). */
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";

export interface CachedPage {
  status: number;
  /** Every header the original reply sent (security headers included), flattened name, value, … for writeHead. */
  headers: string[];
  body: Buffer;
  storedAt: number;
}

export class PageCache {
  private readonly entries = new Map<string, CachedPage>();
  private readonly maxEntries: number;
  private readonly ttlMs: number;

  constructor({ maxEntries = 2000, ttlMs = 60_000 } = {}) {
    this.maxEntries = maxEntries;
    this.ttlMs = ttlMs;
  }

  get(key: string, now = Date.now()): CachedPage | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (now - entry.storedAt > this.ttlMs) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }

  set(key: string, entry: CachedPage): void {
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(key, entry);
  }

  clear(): void {
    this.entries.clear();
  }
}

/** Only shared, successful, cookie-free responses may be replayed to other visitors. */
export function isCacheable(response: Response): boolean {
  if (response.status !== 200 || response.headers.has("set-cookie")) return false;
  const cacheControl = response.headers.get("cache-control") ?? "";
  return !/private|no-store/.test(cacheControl);
}

const sessionCookiePattern = /(?:^|;\s*)sessionid=/;
const languageCookiePattern = /(?:^|;\s*)lang=([^;]*)/;

/** Signed-in visitors (any session cookie) never share cached pages. */
export function isAnonymousRequest(cookieHeader: string | undefined): boolean {
  return !cookieHeader || !sessionCookiePattern.test(cookieHeader);
}

/**
 * The home page redirects by the `lang` cookie, and absolute links (the sitemap's) are built from
 * the host a request names, so both are part of the key: one visitor's Host header must never
 * shape what the next visitor is served.
 */
export function pageCacheKey(url: string, headers: IncomingHttpHeaders): string {
  const cookie = headers.cookie;
  const language = cookie ? (languageCookiePattern.exec(cookie)?.[1] ?? "") : "";
  return `${url}|${language}|${headers.host ?? ""}|${String(headers["x-forwarded-host"] ?? "")}|${String(headers["x-forwarded-proto"] ?? "")}`;
}

/**
 * Answers an anonymous GET straight from the cache on the raw Node request, before Fastify's
 * routing and hooks: a cached page then costs about what bare node:http costs. Returns false
 * when the request must go through the application.
 */
export function serveFromPageCache(cache: PageCache, request: IncomingMessage, response: ServerResponse): boolean {
  if (request.method !== "GET" || !request.url || request.url.startsWith("/api/")) return false;
  const cookie = request.headers.cookie;
  if (!isAnonymousRequest(cookie)) return false;
  const hit = cache.get(pageCacheKey(request.url, request.headers));
  if (!hit) return false;
  response.writeHead(hit.status, hit.headers);
  response.end(hit.body);
  return true;
}
