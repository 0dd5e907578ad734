import { afterEach, describe, expect, it, vi } from "vitest";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import zlib, { brotliDecompressSync, gunzipSync } from "node:zlib";
import {
  PageCache,
  compressForCache,
  crcShift,
  findNonceSlots,
  freshNonce,
  gzipWithNonce,
  gzipWithSlots,
  noncePieces,
  isAnonymousRequest,
  isCacheable,
  pageCacheKey,
  pageCacheUrl,
  pageQueryParameters,
  pickEncoding,
  serveFromPageCache,
} from "./page-cache.ts";

const entry = (storedAt: number) => ({ status: 200, headers: [] as string[], body: Buffer.from("x"), storedAt });

describe("anonymous page cache", () => {
  it("expires entries after the TTL and evicts the oldest when full", () => {
    const cache = new PageCache({ maxEntries: 2, ttlMs: 1000, sweepIntervalMs: 0 });
    cache.set("a", entry(0));
    expect(cache.get("a", 500)).toBeDefined();
    expect(cache.get("a", 1500)).toBeUndefined();
    cache.set("b", entry(2000));
    cache.set("c", entry(2000));
    cache.set("d", entry(2000));
    expect(cache.get("b", 2001)).toBeUndefined();
    expect(cache.get("d", 2001)).toBeDefined();
    cache.clear();
    expect(cache.get("d", 2001)).toBeUndefined();
  });

  it("only stores shared 200 responses without cookies", () => {
    expect(isCacheable(new Response("ok"))).toBe(true);
    expect(isCacheable(new Response("no", { status: 404 }))).toBe(false);
    expect(isCacheable(new Response("ok", { headers: { "set-cookie": "a=b" } }))).toBe(false);
    expect(isCacheable(new Response("ok", { headers: { "cache-control": "private, no-store" } }))).toBe(false);
  });
});

describe("cache keys", () => {
  it("treats any session cookie as signed in", () => {
    expect(isAnonymousRequest(undefined)).toBe(true);
    expect(isAnonymousRequest("lang=en; csrftoken=a.b")).toBe(true);
    expect(isAnonymousRequest("lang=en; sessionid=abc")).toBe(false);
    expect(isAnonymousRequest("sessionid=abc")).toBe(false);
    expect(isAnonymousRequest("notsessionid=abc")).toBe(true);
  });

  it("keys by URL, the lang cookie and the host named", () => {
    const host = "circles.example";
    expect(pageCacheKey("/", { host, cookie: "lang=en; csrftoken=x" })).not.toBe(pageCacheKey("/", { host, cookie: "csrftoken=y" }));
    expect(pageCacheKey("/", { host, cookie: "csrftoken=y" })).toBe(pageCacheKey("/", { host }));
    expect(pageCacheKey("/circles?q=1", { host })).not.toBe(pageCacheKey("/circles", { host }));
    // Another Host (or forwarded host or scheme) never shares an entry.
    const keys = new Set(
      [{ host }, { host: "evil.example" }, { host, "x-forwarded-host": "evil.example" }, { host, "x-forwarded-proto": "http" }].map(
        (headers) => pageCacheKey("/sitemap.xml", headers),
      ),
    );
    expect(keys.size).toBe(4);
  });
});

describe("invalidation by tag", () => {
  it("evicts only the pages rendered with an invalidated tag", () => {
    const cache = new PageCache({ sweepIntervalMs: 0 });
    cache.set("/circles/7", { ...entry(Date.now()), tags: ["circle:7", "circles"] });
    cache.set("/circles/8", { ...entry(Date.now()), tags: ["circle:8", "circles"] });
    cache.set("/about", entry(Date.now()));
    cache.evictTags(["circle:7"]);
    expect(cache.get("/circles/7")).toBeUndefined();
    expect(cache.get("/circles/8")).toBeDefined();
    cache.evictTags(["circles"]);
    expect(cache.get("/circles/8")).toBeUndefined();
    expect(cache.get("/about")).toBeDefined();
    expect(cache.size).toBe(1);
  });
});

describe("compressed cached pages", () => {
  it("stores brotli and gzip copies once and picks one by Accept-Encoding", async () => {
    const body = Buffer.from("<p>circles</p>".repeat(200));
    const copies = await compressForCache(body);
    expect(brotliDecompressSync(copies.brotli!).equals(body)).toBe(true);
    expect(gunzipSync(copies.gzip!).equals(body)).toBe(true);
    expect(pickEncoding("gzip, deflate, br", copies)).toBe("br");
    expect(pickEncoding("gzip", copies)).toBe("gzip");
    expect(pickEncoding("br;q=0, gzip", copies)).toBe("gzip");
    expect(pickEncoding(undefined, copies)).toBeUndefined();
    expect(await compressForCache(Buffer.from("tiny"))).toEqual({});
  });
});

describe("memory bounds", () => {
  const sized = (bytes: number, storedAt = Date.now()) => ({ status: 200, headers: [] as string[], body: Buffer.alloc(bytes), storedAt });

  it("keeps all entries within a byte budget, dropping the oldest first", () => {
    const cache = new PageCache({ maxBytes: 10_000, maxEntryBytes: 5_000, sweepIntervalMs: 0 });
    for (let index = 0; index < 10; index++) cache.set(`/page/${index}`, sized(3_000));
    expect(cache.bytes).toBeLessThanOrEqual(10_000);
    expect(cache.size).toBe(3);
    expect(cache.get("/page/9")).toBeDefined();
    expect(cache.get("/page/6")).not.toBeDefined();
    // Compressed copies count too.
    cache.set("/page/c", { ...sized(2_000), gzip: Buffer.alloc(1_000), brotli: Buffer.alloc(1_000) });
    expect(cache.bytes).toBeLessThanOrEqual(10_000);
    cache.evictTags([]);
    cache.clear();
    expect(cache.bytes).toBe(0);
  });

  it("never stores a rendered page above the size cap", () => {
    const cache = new PageCache({ maxEntryBytes: 2 * 1024 * 1024, sweepIntervalMs: 0 });
    expect(cache.accepts(2 * 1024 * 1024)).toBe(true);
    expect(cache.accepts(2 * 1024 * 1024 + 1)).toBe(false);
    cache.set("/big", sized(2 * 1024 * 1024 + 1));
    expect(cache.size).toBe(0);
    expect(cache.bytes).toBe(0);
    cache.set("/fits", sized(1024));
    expect(cache.size).toBe(1);
    // Replacing an entry gives its bytes back.
    cache.set("/fits", sized(10));
    expect(cache.bytes).toBe(10);
  });

  it("sweeps expired entries on a timer, without anyone asking for them", () => {
    vi.useFakeTimers();
    try {
      const cache = new PageCache({ ttlMs: 1_000, sweepIntervalMs: 100 });
      cache.set("/a", sized(100));
      vi.advanceTimersByTime(600);
      cache.set("/b", sized(100));
      expect(cache.size).toBe(2);
      vi.advanceTimersByTime(600);
      // /a expired and was swept by the timer; /b is still fresh.
      expect(cache.size).toBe(1);
      expect(cache.bytes).toBe(100);
      vi.advanceTimersByTime(1_000);
      expect(cache.size).toBe(0);
      cache.close();
    } finally {
      vi.useRealTimers();
    }
  });

  it("keeps only the query parameters pages read in the key", () => {
    const host = "circles.example";
    const keys = new Set(Array.from({ length: 150 }, (_, index) => pageCacheKey(`/en/writing?f=${index}`, { host })));
    expect(keys.size).toBe(1);
    expect(pageCacheUrl("/circles/3?f=1&tab=books&utm_source=x")).toBe("/circles/3?tab=books");
    expect(pageCacheUrl("/?cursor=abc&tab=hot")).toBe(pageCacheUrl("/?tab=hot&cursor=abc"));
    // Route discovery answers by its own parameters: two manifests of different paths are two entries.
    expect(pageCacheUrl("/__manifest?paths=%2Fforget_password&version=1")).not.toBe(pageCacheUrl("/__manifest?paths=%2Fsearch&version=1"));
    expect(pageCacheUrl("/?tab=hot")).not.toBe(pageCacheUrl("/?tab=all"));
    expect(pageCacheUrl("/en.data?_routes=routes%2Fhome&f=2")).toBe("/en.data?_routes=routes%2Fhome");
    expect(pageCacheUrl("/search?q=%E6%95%B0&x=%zz")).toBe("/search?q=%E6%95%B0");
    expect(pageCacheUrl("/about?")).toBe("/about");
    // The same parameter repeated keeps its order (pages read the first).
    expect(pageCacheUrl("/?tab=b&tab=a")).not.toBe(pageCacheUrl("/?tab=a&tab=b"));

    const cache = new PageCache({ sweepIntervalMs: 0 });
    for (let index = 0; index < 150; index++) cache.set(pageCacheKey(`/big?f=${index}`, { host }), sized(1000));
    expect(cache.size).toBe(1);
  });

  it("knows every query parameter a page reads", () => {
    const root = path.resolve(import.meta.dirname, "../../app");
    const files = readdirSync(root, { recursive: true, encoding: "utf8" }).filter(
      (file) => /\.tsx?$/.test(file) && !file.includes(".test."),
    );
    const read = new Set<string>();
    for (const file of files) {
      const source = readFileSync(path.join(root, file), "utf8");
      for (const match of source.matchAll(/(?:params|search|query|searchParams)\.(?:get|getAll|has)\("([\w-]+)"\)/g)) read.add(match[1]!);
    }
    expect(read.size).toBeGreaterThan(5);
    expect([...read].filter((name) => !pageQueryParameters.has(name))).toEqual([]);
  });
});

describe("fresh nonces on cached pages", () => {
  const rendered = "RENDEREDnonce0000000000=";
  const page = (extra = "") =>
    Buffer.from(
      `<!DOCTYPE html><html><head><script nonce="${rendered}">1</script></head><body>${"<p>circles 数学</p>".repeat(300)}${extra}` +
        `<script nonce="${rendered}">window.__ctx={"nonce":"${rendered}"}</script></body></html>`,
    );
  const headers = ["content-type", "text/html; charset=utf-8", "content-security-policy", `script-src 'self' 'nonce-${rendered}'`];

  it("finds the rendered nonce in the body and the CSP header", () => {
    const body = page();
    const slots = findNonceSlots(rendered, headers, body)!;
    expect(slots.body).toHaveLength(3);
    expect(slots.headers).toEqual([3]);
    for (const at of slots.body) expect(body.toString("latin1", at, at + rendered.length)).toBe(rendered);
    expect(findNonceSlots("absent", headers, body)).toBeUndefined();
    expect(new Set(Array.from({ length: 300 }, freshNonce)).size).toBe(300);
    expect(freshNonce()).toMatch(/^[A-Za-z0-9+/]{22}==$/);
  });

  it("builds a gzip copy whose slots can be rewritten, with a matching CRC", async () => {
    const body = page();
    const slots = findNonceSlots(rendered, headers, body)!;
    const { gzip, gzipSlots } = await gzipWithSlots(body, slots.body, rendered.length);
    expect(gunzipSync(gzip!).equals(body)).toBe(true);
    const fresh = freshNonce();
    const rewritten = Buffer.concat(gzipWithNonce(gzip!, gzipSlots!, Buffer.from(fresh)));
    // gunzip checks the trailer's CRC-32 and length.
    expect(gunzipSync(rewritten).toString()).toBe(body.toString().replaceAll(rendered, fresh));
    // Slots at the very start and end of the body (empty segments) work as well.
    const edge = Buffer.from(`${rendered}${"x".repeat(2000)}${rendered}`);
    const edgeCopy = await gzipWithSlots(edge, [0, edge.length - rendered.length], rendered.length);
    expect(gunzipSync(Buffer.concat(gzipWithNonce(edgeCopy.gzip!, edgeCopy.gzipSlots!, Buffer.from(fresh)))).toString()).toBe(
      `${fresh}${"x".repeat(2000)}${fresh}`,
    );
    // Long fixed segments (the shift operator over many bytes) keep the CRC right.
    const long = Buffer.concat([Buffer.from("数学".repeat(100_000)), Buffer.from(rendered), Buffer.from("y".repeat(70_001))]);
    const longCopy = await gzipWithSlots(long, [600_000], rendered.length);
    expect(zlib.crc32(gunzipSync(Buffer.concat(gzipWithNonce(longCopy.gzip!, longCopy.gzipSlots!, Buffer.from(fresh)))))).toBe(
      zlib.crc32(Buffer.from(long.toString().replace(rendered, fresh))),
    );
    expect(crcShift(0)).toBe(0x80000000);
  });

  it("rewrites slots in small copied clusters and leaves the long stretches between them as views", () => {
    const page = Buffer.from(`${"a".repeat(100)}N0N0${"b".repeat(10)}N0N0${"c".repeat(20_000)}N0N0${"d".repeat(50)}`);
    const slots = [100, 114, 20_118];
    const pieces = noncePieces(page, slots, Buffer.from("FRSH"));
    expect(Buffer.concat(pieces).toString()).toBe(page.toString().replaceAll("N0N0", "FRSH"));
    // Two clusters (the first two slots together), the long stretch in between is the stored bytes.
    expect(pieces.map((piece) => piece.length)).toEqual([100, 18, 20_000, 4, 50]);
    expect(pieces[2]!.buffer).toBe(page.buffer);
    expect(page.toString()).toContain("N0N0");
  });

  let server: Server | undefined;
  afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  it("serves three different nonces in a row, each the same in the header and the inline scripts", async () => {
    const cache = new PageCache({ sweepIntervalMs: 0 });
    const body = page();
    const nonce = findNonceSlots(rendered, headers, body);
    cache.set(pageCacheKey("/en/about", { host: "127.0.0.1" }), {
      status: 200,
      headers,
      body,
      ...(await compressForCache(body, nonce)),
      nonce,
      storedAt: Date.now(),
    });
    server = createServer((request, response) => {
      request.headers.host = "127.0.0.1";
      if (!serveFromPageCache(cache, request, response)) response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/en/about`;
    for (const encoding of ["identity", "gzip", "br"]) {
      const seen = new Set<string>();
      for (let index = 0; index < 3; index++) {
        const answer = await fetch(url, { headers: { "accept-encoding": encoding } });
        expect(answer.status).toBe(200);
        const text = await answer.text();
        const headerNonce = /'nonce-([^']+)'/.exec(answer.headers.get("content-security-policy")!)![1]!;
        expect(headerNonce).not.toBe(rendered);
        expect([...text.matchAll(/nonce="([^"]+)"/g)].map((match) => match[1])).toEqual([headerNonce, headerNonce]);
        expect(text).toContain(`{"nonce":"${headerNonce}"}`);
        expect(text).not.toContain(rendered);
        expect(text.replaceAll(headerNonce, rendered)).toBe(body.toString());
        seen.add(headerNonce);
      }
      expect(seen.size).toBe(3);
    }
    // A page with a nonce keeps no brotli copy (brotli would need compressing again): gzip it is.
    expect(pickEncoding("br, gzip", cache.get(pageCacheKey("/en/about", { host: "127.0.0.1" }))!)).toBe("gzip");
  });
});
