/** A small in-process cache of anonymous page responses (rendering is ~40x slower than sending bytes). */
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";
import { promisify } from "node:util";
import zlib from "node:zlib";

const brotliCompress = promisify(zlib.brotliCompress);
const gzipCompress = promisify(zlib.gzip);

export interface CachedPage {
  status: number;
  /** Every header the original reply sent (security headers included), flattened name, value, … for writeHead. */
  headers: string[];
  body: Buffer;
  /** The same body compressed once when stored, sent to clients that accept it. */
  brotli?: Buffer;
  gzip?: Buffer;
  storedAt: number;
  /** What the page shows (`home`, `circle:7`…): `evictTags` drops it when one of them changes. */
  tags?: string[];
}

export class PageCache {
  private readonly entries = new Map<string, CachedPage>();
  private readonly keysByTag = new Map<string, Set<string>>();
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
      this.delete(key);
      return undefined;
    }
    return entry;
  }

  set(key: string, entry: CachedPage): void {
    this.delete(key);
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.delete(oldest);
    }
    this.entries.set(key, entry);
    for (const tag of entry.tags ?? []) {
      let keys = this.keysByTag.get(tag);
      if (!keys) this.keysByTag.set(tag, (keys = new Set()));
      keys.add(key);
    }
  }

  /** Drops every page rendered with any of these tags; the rest stay. */
  evictTags(tags: Iterable<string>): void {
    for (const tag of tags) {
      for (const key of this.keysByTag.get(tag) ?? []) this.delete(key);
      this.keysByTag.delete(tag);
    }
  }

  get size(): number {
    return this.entries.size;
  }

  clear(): void {
    this.entries.clear();
    this.keysByTag.clear();
  }

  private delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    for (const tag of entry.tags ?? []) {
      const keys = this.keysByTag.get(tag);
      keys?.delete(key);
      if (keys?.size === 0) this.keysByTag.delete(tag);
    }
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
  const encoding = pickEncoding(request.headers["accept-encoding"], hit);
  if (encoding === "br") {
    response.writeHead(hit.status, [...hit.headers, "content-encoding", "br", "content-length", String(hit.brotli!.length)]);
    response.end(hit.brotli);
  } else if (encoding === "gzip") {
    response.writeHead(hit.status, [...hit.headers, "content-encoding", "gzip", "content-length", String(hit.gzip!.length)]);
    response.end(hit.gzip);
  } else {
    response.writeHead(hit.status, [...hit.headers, "content-length", String(hit.body.length)]);
    response.end(hit.body);
  }
  return true;
}

/** Brotli when the client takes it, then gzip, else the plain body (`q=0` refuses a coding). */
export function pickEncoding(
  acceptEncoding: string | string[] | undefined,
  page: Pick<CachedPage, "brotli" | "gzip">,
): "br" | "gzip" | undefined {
  const header = Array.isArray(acceptEncoding) ? acceptEncoding.join(",") : (acceptEncoding ?? "");
  if (!header) return undefined;
  const accepted = new Set(
    header
      .split(",")
      .map((part) => part.trim().toLowerCase().split(";"))
      .filter(([, ...params]) => !params.some((param) => /^\s*q=0(\.0*)?\s*$/.test(param)))
      .map(([coding]) => coding),
  );
  if (page.brotli && accepted.has("br")) return "br";
  if (page.gzip && (accepted.has("gzip") || accepted.has("*"))) return "gzip";
  return undefined;
}

/** Compresses a page once, when it is stored; small bodies are not worth it. */
export async function compressForCache(body: Buffer): Promise<Pick<CachedPage, "brotli" | "gzip">> {
  if (body.length < 1024) return {};
  const [brotli, gzip] = await Promise.all([
    brotliCompress(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 9, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length } }),
    gzipCompress(body, { level: 9 }),
  ]);
  return { brotli, gzip };
}
