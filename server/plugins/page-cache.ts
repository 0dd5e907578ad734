/** A small in-process cache of anonymous page responses (rendering is ~40x slower than sending bytes). */
import { randomBytes } from "node:crypto";
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";
import { promisify } from "node:util";
import zlib from "node:zlib";

const brotliCompress = promisify(zlib.brotliCompress);
const gzipCompress = promisify(zlib.gzip);
const deflateRaw = promisify(zlib.deflateRaw);

/**
 * Where a cached page carries its Content-Security-Policy nonce: each answer gets a fresh one
 * written over these places, so no two visitors of a cached page share a nonce.
 */
export interface NonceSlots {
  /** The nonce the page was rendered with (the placeholder the slots point at), ASCII. */
  value: string;
  /** Byte offsets of the nonce in `body`. */
  body: number[];
  /** Indexes in `headers` of values that carry it (the CSP header). */
  headers: number[];
}

export interface CachedPage {
  status: number;
  /** Every header the original reply sent (security headers included), flattened name, value, … for writeHead. */
  headers: string[];
  body: Buffer;
  /** The same body compressed once when stored, sent to clients that accept it. */
  brotli?: Buffer;
  gzip?: Buffer;
  /** A page carrying a nonce keeps a gzip copy whose nonces stand uncompressed at these offsets (see `gzipWithSlots`). */
  gzipSlots?: GzipSlots;
  nonce?: NonceSlots;
  storedAt: number;
  /** What the page shows (`home`, `circle:7`…): `evictTags` drops it when one of them changes. */
  tags?: string[];
}

/** The bytes an entry holds (body and compressed copies), what the byte budget counts. */
export function entryBytes(entry: Pick<CachedPage, "body" | "brotli" | "gzip">): number {
  return entry.body.length + (entry.brotli?.length ?? 0) + (entry.gzip?.length ?? 0);
}

export interface PageCacheOptions {
  maxEntries?: number;
  ttlMs?: number;
  /** All entries together, bodies and compressed copies (64 MiB). */
  maxBytes?: number;
  /** A page larger than this (2 MiB rendered) is never stored. */
  maxEntryBytes?: number;
  /** How often expired entries are dropped without being asked for (the TTL; 0: never, for tests). */
  sweepIntervalMs?: number;
}

export class PageCache {
  private readonly entries = new Map<string, CachedPage>();
  private readonly keysByTag = new Map<string, Set<string>>();
  private readonly maxEntries: number;
  private readonly ttlMs: number;
  readonly maxBytes: number;
  readonly maxEntryBytes: number;
  private storedBytes = 0;
  private readonly sweeper: NodeJS.Timeout | undefined;

  constructor({
    maxEntries = 2000,
    ttlMs = 60_000,
    maxBytes = 64 * 1024 * 1024,
    maxEntryBytes = 2 * 1024 * 1024,
    sweepIntervalMs = ttlMs,
  }: PageCacheOptions = {}) {
    this.maxEntries = maxEntries;
    this.ttlMs = ttlMs;
    this.maxBytes = maxBytes;
    this.maxEntryBytes = maxEntryBytes;
    if (sweepIntervalMs > 0) {
      // Never keeps the process alive; `close` stops it with the server.
      this.sweeper = setInterval(() => this.sweep(), sweepIntervalMs);
      this.sweeper.unref();
    }
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

  /** Whether a rendered page of this size may be stored at all. */
  accepts(bodyBytes: number): boolean {
    return bodyBytes <= this.maxEntryBytes;
  }

  set(key: string, entry: CachedPage): void {
    this.delete(key);
    if (!this.accepts(entry.body.length)) return;
    const bytes = entryBytes(entry);
    if (bytes > this.maxBytes) return;
    // Oldest first (a Map iterates in insertion order) until the entry fits both limits.
    for (const oldest of this.entries.keys()) {
      if (this.entries.size < this.maxEntries && this.storedBytes + bytes <= this.maxBytes) break;
      this.delete(oldest);
    }
    this.entries.set(key, entry);
    this.storedBytes += bytes;
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

  /** Drops every expired entry (run by the timer, so pages nobody asks for again free their memory). */
  sweep(now = Date.now()): void {
    for (const [key, entry] of this.entries) if (now - entry.storedAt > this.ttlMs) this.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }

  /** Bytes held by all entries. */
  get bytes(): number {
    return this.storedBytes;
  }

  clear(): void {
    this.entries.clear();
    this.keysByTag.clear();
    this.storedBytes = 0;
  }

  /** Stops the sweeper and empties the cache (the server is closing). */
  close(): void {
    if (this.sweeper) clearInterval(this.sweeper);
    this.clear();
  }

  private delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.storedBytes -= entryBytes(entry);
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
 * The query parameters some page reads (loaders and components): only these are part of a cache
 * key, so `?f=0` … `?f=149` on one page are one entry instead of 150 copies of it.
 * `_routes` and `index` are React Router's own. `page-cache.test.ts` reads the pages' sources and
 * fails when a page reads a parameter missing here: add it with the page.
 */
export const pageQueryParameters: ReadonlySet<string> = new Set([
  "_routes",
  "index",
  "tab",
  "sort",
  "cursor",
  "page",
  "q",
  "open",
  "folder",
  "comments",
  "comment_sort",
  "replies",
  "after",
  "notice",
  "answer_comments",
  "language",
  "edit",
  "translate",
  "series",
  "number",
  "changed",
  "deleted",
  "next",
  "done",
  "status",
  "mode",
  "puzzle",
  "kind",
  "revision",
  "from",
  "to",
  "view",
  "format",
  "before",
  "exchanged",
  "code_url",
  "type",
  "bought",
  "made_up",
  "streak",
  "days",
  "subject_type",
  "subject_id",
  "metric",
  "sent",
  "suggested",
  "state",
  "scope",
  "created",
  "amount",
  "member",
  "circle_id",
  "min_reward",
  "ends_within",
]);

/**
 * The URL as far as pages read it: the path and the known parameters (sorted by name, repeated
 * ones in their order), the rest left out. A name that does not decode keeps the URL as it is
 * (the page answers 400 to it anyway).
 */
export function pageCacheUrl(url: string): string {
  const mark = url.indexOf("?");
  if (mark < 0) return url;
  // React Router's route discovery answers by its own parameters (`paths`, `version`): keep its whole query.
  if (url.slice(0, mark).endsWith("/__manifest")) return url;
  const kept: [string, string][] = [];
  for (const part of url.slice(mark + 1).split("&")) {
    if (!part) continue;
    const equals = part.indexOf("=");
    const raw = equals < 0 ? part : part.slice(0, equals);
    let name: string;
    try {
      name = decodeURIComponent(raw.replaceAll("+", " "));
    } catch {
      return url;
    }
    if (pageQueryParameters.has(name)) kept.push([name, part]);
  }
  const path = url.slice(0, mark);
  if (kept.length === 0) return path;
  kept.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `${path}?${kept.map(([, part]) => part).join("&")}`;
}

/**
 * The home page redirects by the `lang` cookie, and absolute links (the sitemap's) are built from
 * the host a request names, so both are part of the key: one visitor's Host header must never
 * shape what the next visitor is served. Of the query only what pages read counts (`pageCacheUrl`).
 */
export function pageCacheKey(url: string, headers: IncomingHttpHeaders): string {
  const cookie = headers.cookie;
  const language = cookie ? (languageCookiePattern.exec(cookie)?.[1] ?? "") : "";
  return `${pageCacheUrl(url)}|${language}|${headers.host ?? ""}|${String(headers["x-forwarded-host"] ?? "")}|${String(headers["x-forwarded-proto"] ?? "")}`;
}

// Nonces come from a pool of random bytes refilled in one call (one system call per 256 answers).
const noncePool = Buffer.alloc(16 * 256);
let noncePoolOffset = noncePool.length;

/** A fresh Content-Security-Policy nonce (16 random bytes, base64: 24 ASCII characters). */
export function freshNonce(): string {
  if (noncePoolOffset >= noncePool.length) {
    randomBytes(noncePool.length).copy(noncePool);
    noncePoolOffset = 0;
  }
  const nonce = noncePool.toString("base64", noncePoolOffset, noncePoolOffset + 16);
  noncePoolOffset += 16;
  return nonce;
}

/** Finds where a rendered page carries its nonce (none: the page has nothing to rewrite). */
export function findNonceSlots(nonce: string, headers: string[], body: Buffer): NonceSlots | undefined {
  const bodySlots: number[] = [];
  for (let at = body.indexOf(nonce, 0, "latin1"); at >= 0; at = body.indexOf(nonce, at + nonce.length, "latin1")) bodySlots.push(at);
  const headerSlots = headers.flatMap((value, index) => (index % 2 === 1 && value.includes(nonce) ? [index] : []));
  if (bodySlots.length === 0 && headerSlots.length === 0) return undefined;
  return { value: nonce, body: bodySlots, headers: headerSlots };
}

function headersWithNonce(page: CachedPage, nonce: string | undefined): string[] {
  if (!nonce || !page.nonce || page.nonce.headers.length === 0) return page.headers;
  const headers = page.headers.slice();
  for (const index of page.nonce.headers) headers[index] = headers[index]!.replaceAll(page.nonce.value, nonce);
  return headers;
}

/**
 * `bytes` with `nonce` written over each slot, as pieces written corked to the socket: the long
 * stretches without a slot are views of the stored bytes, and each cluster of nearby slots (a
 * page carries its nonce some twenty times, on every script and module preload, mostly in the
 * head and at the end) is copied into one small buffer and patched. Copying the whole page per
 * answer instead allocates outside the heap and costs more in garbage collection than the copy.
 */
export function noncePieces(bytes: Buffer, slots: readonly number[], nonce: Buffer): Buffer[] {
  const pieces: Buffer[] = [];
  let done = 0;
  let index = 0;
  while (index < slots.length) {
    const start = slots[index]!;
    let end = start + nonce.length;
    let last = index;
    // A slot within 2 KiB of the cluster joins it, while the cluster stays small (pooled buffers).
    while (last + 1 < slots.length && slots[last + 1]! - end < 2048 && slots[last + 1]! + nonce.length - start <= 3072) {
      last += 1;
      end = slots[last]! + nonce.length;
    }
    if (start > done) pieces.push(bytes.subarray(done, start));
    const cluster = Buffer.allocUnsafe(end - start);
    bytes.copy(cluster, 0, start, end);
    for (let slot = index; slot <= last; slot++) nonce.copy(cluster, slots[slot]! - start);
    pieces.push(cluster);
    done = end;
    index = last + 1;
  }
  if (done < bytes.length) pieces.push(bytes.subarray(done));
  return pieces;
}

/** Writes a cached answer: one buffer, or pieces corked into one write of the socket. */
function sendCached(response: ServerResponse, status: number, headers: string[], body: Buffer | Buffer[]): void {
  if (Buffer.isBuffer(body)) {
    response.writeHead(status, [...headers, "content-length", String(body.length)]);
    response.end(body);
    return;
  }
  let length = 0;
  for (const piece of body) length += piece.length;
  response.writeHead(status, [...headers, "content-length", String(length)]);
  response.cork();
  for (let index = 0; index < body.length - 1; index++) response.write(body[index]);
  response.end(body.at(-1));
}

/**
 * Answers an anonymous GET straight from the cache on the raw Node request, before Fastify's
 * routing and hooks: a cached page then costs about what bare node:http costs. Returns false
 * when the request must go through the application. A page with a nonce gets a fresh one in its
 * CSP header and its inline scripts.
 */
export function serveFromPageCache(cache: PageCache, request: IncomingMessage, response: ServerResponse): boolean {
  if (request.method !== "GET" || !request.url || request.url.startsWith("/api/")) return false;
  const cookie = request.headers.cookie;
  if (!isAnonymousRequest(cookie)) return false;
  const hit = cache.get(pageCacheKey(request.url, request.headers));
  if (!hit) return false;
  const nonce = hit.nonce ? freshNonce() : undefined;
  const headers = headersWithNonce(hit, nonce);
  const encoding = pickEncoding(request.headers["accept-encoding"], hit);
  const nonceBytes = nonce && hit.nonce && hit.nonce.body.length > 0 ? Buffer.from(nonce, "latin1") : undefined;
  if (encoding === "br") {
    sendCached(response, hit.status, [...headers, "content-encoding", "br"], hit.brotli!);
  } else if (encoding === "gzip") {
    const gzip = hit.gzipSlots && nonceBytes ? gzipWithNonce(hit.gzip!, hit.gzipSlots, nonceBytes) : hit.gzip!;
    sendCached(response, hit.status, [...headers, "content-encoding", "gzip"], gzip);
  } else {
    sendCached(response, hit.status, headers, nonceBytes ? noncePieces(hit.body, hit.nonce!.body, nonceBytes) : hit.body);
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

/**
 * Compresses a page once, when it is stored; small bodies are not worth it. A page with nonces in
 * its body gets only a gzip copy built around them (`gzipWithSlots`): brotli offers no place
 * where a few bytes can be replaced without compressing again.
 */
export async function compressForCache(body: Buffer, nonce?: NonceSlots): Promise<Pick<CachedPage, "brotli" | "gzip" | "gzipSlots">> {
  if (body.length < 1024) return {};
  if (nonce && nonce.body.length > 0) return gzipWithSlots(body, nonce.body, nonce.value.length);
  const [brotli, gzip] = await Promise.all([
    brotliCompress(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 9, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length } }),
    gzipCompress(body, { level: 9 }),
  ]);
  return { brotli, gzip };
}

// ---- gzip with replaceable bytes -------------------------------------------------------------

/**
 * Where the replaceable bytes stand in a gzip copy, and what the trailer's CRC-32 needs. CRC-32
 * is linear over GF(2), so the CRC of the body with `X` in every slot is the CRC of the body with
 * zeros there, plus the (linear part of the) CRC of `X` multiplied by the sum of the shifts from
 * each slot to the end: a fresh nonce costs one CRC of 24 bytes and one multiplication.
 */
export interface GzipSlots {
  /** Offsets of each slot's bytes in the gzip copy (stored uncompressed there). */
  offsets: number[];
  /** CRC-32 of the body with every slot zeroed. */
  zeroedCrc: number;
  /** CRC-32 of as many zero bytes as a slot holds (the affine part of a slot's CRC). */
  zeroSlotCrc: number;
  /** Σ x^(8·bytes after slot i) mod P over the slots. */
  shiftSum: number;
  /** Offset of the trailer's CRC-32 in the gzip copy. */
  crcAt: number;
}

/**
 * One gzip member whose deflate stream alternates compressed segments (each flushed to a byte
 * boundary with Z_SYNC_FLUSH, compressed on its own) and stored (uncompressed) blocks holding the
 * slots, then an empty final block and the trailer. Any decoder reads it; the slots' bytes can be
 * overwritten in place, then only the trailer's CRC-32 changes (`gzipWithNonce`).
 */
export async function gzipWithSlots(body: Buffer, slots: number[], slotLength: number): Promise<Pick<CachedPage, "gzip" | "gzipSlots">> {
  const segments: Buffer[] = [];
  let start = 0;
  for (const at of slots) {
    segments.push(body.subarray(start, at));
    start = at + slotLength;
  }
  segments.push(body.subarray(start));
  const compressed = await Promise.all(
    segments.map((segment) =>
      segment.length === 0 ? Promise.resolve(Buffer.alloc(0)) : deflateRaw(segment, { level: 9, finishFlush: zlib.constants.Z_SYNC_FLUSH }),
    ),
  );
  const parts: Buffer[] = [Buffer.from([0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0, 0xff])];
  let length = parts[0]!.length;
  const offsets: number[] = [];
  compressed.forEach((part, index) => {
    parts.push(part);
    length += part.length;
    if (index === slots.length) return;
    const stored = Buffer.alloc(5 + slotLength);
    stored.writeUInt16LE(slotLength, 1);
    stored.writeUInt16LE(~slotLength & 0xffff, 3);
    body.copy(stored, 5, slots[index], slots[index]! + slotLength);
    parts.push(stored);
    offsets.push(length + 5);
    length += stored.length;
  });
  const trailer = Buffer.alloc(5 + 8);
  trailer.set([0x01, 0x00, 0x00, 0xff, 0xff]);
  trailer.writeUInt32LE(zlib.crc32(body), 5);
  trailer.writeUInt32LE(body.length % 2 ** 32, 9);
  parts.push(trailer);
  const crcAt = length + 5;
  const zeroed = Buffer.from(body);
  let shiftSum = 0;
  for (const at of slots) {
    zeroed.fill(0, at, at + slotLength);
    shiftSum ^= crcShift(body.length - at - slotLength);
  }
  return {
    gzip: Buffer.concat(parts),
    gzipSlots: {
      offsets,
      zeroedCrc: zlib.crc32(zeroed),
      zeroSlotCrc: zlib.crc32(Buffer.alloc(slotLength)),
      shiftSum: shiftSum >>> 0,
      crcAt,
    },
  };
}

/** The gzip copy with a fresh nonce in every slot and the trailer's CRC-32 to match, as pieces. */
export function gzipWithNonce(gzip: Buffer, slots: GzipSlots, nonce: Buffer): Buffer[] {
  const crc = (slots.zeroedCrc ^ multiplyModP(slots.shiftSum, (zlib.crc32(nonce) ^ slots.zeroSlotCrc) >>> 0)) >>> 0;
  const trailer = Buffer.allocUnsafe(8);
  trailer.writeUInt32LE(crc, 0);
  gzip.copy(trailer, 4, slots.crcAt + 4);
  return [...noncePieces(gzip.subarray(0, slots.crcAt), slots.offsets, nonce), trailer];
}

// CRC-32 combination as zlib's crc32_combine does it: crc(A‖B) = crc(A)·x^(8·|B|) mod P ⊕ crc(B),
// with polynomials in the reflected bit order of the CRC (x^0 is the top bit).
const crcPolynomial = 0xedb88320;

function multiplyModP(a: number, b: number): number {
  if (a === 0) return 0;
  let m = 0x80000000;
  let product = 0;
  for (;;) {
    if (a & m) {
      product ^= b;
      if ((a & (m - 1)) === 0) break;
    }
    m >>>= 1;
    b = b & 1 ? (b >>> 1) ^ crcPolynomial : b >>> 1;
  }
  return product >>> 0;
}

/** x^(2^n) mod P for n = 0…31. */
const powersOfX = (() => {
  const table: number[] = [];
  let p = 0x40000000; // x^1
  table.push(p);
  for (let n = 1; n < 32; n++) table.push((p = multiplyModP(p, p)));
  return table;
})();

/** x^(8·bytes) mod P: the operator that shifts a CRC past `bytes` bytes. */
export function crcShift(bytes: number): number {
  let p = 0x80000000; // x^0
  let k = 3;
  for (let n = bytes; n > 0; n = Math.floor(n / 2), k++) if (n % 2 === 1) p = multiplyModP(powersOfX[k & 31]!, p);
  return p;
}
