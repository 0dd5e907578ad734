import { describe, expect, it } from "vitest";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { PageCache, compressForCache, isAnonymousRequest, isCacheable, pageCacheKey, pickEncoding } from "./page-cache.ts";

const entry = (storedAt: number) => ({ status: 200, headers: [] as string[], body: Buffer.from("x"), storedAt });

describe("anonymous page cache", () => {
  it("expires entries after the TTL and evicts the oldest when full", () => {
    const cache = new PageCache({ maxEntries: 2, ttlMs: 1000 });
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
    expect(pageCacheKey("/circles?x=1", { host })).not.toBe(pageCacheKey("/circles", { host }));
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
    const cache = new PageCache();
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
