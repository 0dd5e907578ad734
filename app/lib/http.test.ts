import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createHttp, retryStatusCodes } from "./http.ts";

/** A real HTTP server that answers each path with a scripted sequence of statuses. */
let server: Server;
let baseURL: string;
const hits = new Map<string, number>();
const seen: { method: string; url: string; csrf: string | undefined; body: string }[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => (body += chunk));
    request.on("end", () => {
      const url = new URL(request.url ?? "/", "http://x");
      seen.push({ method: request.method ?? "", url: request.url ?? "", csrf: request.headers["x-csrftoken"] as string | undefined, body });
      if (url.pathname === "/api/get_csrf_token/")
        return void response.setHeader("content-type", "application/json").end(JSON.stringify({ csrftoken: "fresh.token" }));
      if (url.pathname === "/slow") return void setTimeout(() => response.end("{}"), 500);
      if (url.pathname.startsWith("/bound")) {
        // Accepts only the token the server hands out now, as for a session-bound CSRF token.
        response.statusCode = request.headers["x-csrftoken"] === "fresh.token" && url.pathname !== "/bound/never" ? 200 : 403;
        response.setHeader("content-type", "application/json");
        return void response.end(
          JSON.stringify(
            response.statusCode === 200 ? { ok: true } : { code: url.pathname === "/bound/other" ? "forbidden" : "csrf_failed" },
          ),
        );
      }
      const count = (hits.get(url.pathname) ?? 0) + 1;
      hits.set(url.pathname, count);
      const status = Number(url.pathname.split("/")[2]);
      response.statusCode = count === 1 && status ? status : 200;
      response.setHeader("content-type", "application/json");
      response.end(JSON.stringify({ count, query: Object.fromEntries(url.searchParams) }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  hits.clear();
  seen.length = 0;
});

describe("client HTTP layer", () => {
  const http = () => createHttp({ baseURL, timeout: 2000, readCookie: () => "cookie.token" });

  it.each(retryStatusCodes)("retries a GET once after %i", async (status) => {
    const answer = await http()<{ count: number }>(`/fail/${status}/${Math.random()}`);
    expect(answer.count).toBe(2);
  });

  it.each(["HEAD", "OPTIONS"])("retries %s once too", async (method) => {
    const path = `/fail/503/${method}`;
    await http().raw(path, { method });
    expect(hits.get(path)).toBe(2);
  });

  it.each(["POST", "PUT", "PATCH", "DELETE"])("never retries %s", async (method) => {
    const path = `/fail/503/${method}`;
    await expect(http()(path, { method, body: {} })).rejects.toMatchObject({ statusCode: 503 });
    expect(hits.get(path)).toBe(1);
  });

  it.each([400, 401, 403, 404, 501])("does not retry a GET after %i", async (status) => {
    const path = `/fail/${status}/once`;
    await expect(http()(path)).rejects.toMatchObject({ statusCode: status });
    expect(hits.get(path)).toBe(1);
  });

  it("sends query parameters and JSON bodies, with the CSRF header only on unsafe methods", async () => {
    const client = http();
    const answer = await client<{ query: Record<string, string> }>("/echo", { query: { q: "圈子", page: 2 } });
    expect(answer.query).toEqual({ q: "圈子", page: "2" });
    await client("/echo", { method: "POST", body: { a: 1 } });
    expect(seen[0]!.csrf).toBeUndefined();
    expect(seen[1]).toMatchObject({ method: "POST", csrf: "cookie.token", body: '{"a":1}' });
  });

  it("fetches a CSRF token first when the visitor has none", async () => {
    const client = createHttp({ baseURL, readCookie: () => undefined });
    await client("/echo", { method: "PATCH", body: {} });
    expect(seen.map((request) => request.url)).toEqual(["/api/get_csrf_token/", "/echo"]);
    expect(seen[1]!.csrf).toBe("fresh.token");
  });

  it("sends a call refused for a stale CSRF token once more, with the token the server hands out now", async () => {
    const client = createHttp({ baseURL, readCookie: () => "stale.token" });
    await expect(client("/bound", { method: "POST", body: { a: 1 } })).resolves.toEqual({ ok: true });
    expect(seen.map((request) => [request.url, request.csrf])).toEqual([
      ["/bound", "stale.token"],
      ["/api/get_csrf_token/", undefined],
      ["/bound", "fresh.token"],
    ]);
    expect(seen[2]!.body).toBe('{"a":1}');
  });

  it("does not repeat other 403s, nor a call refused a second time", async () => {
    const client = createHttp({ baseURL, readCookie: () => "stale.token" });
    await expect(client("/bound/other", { method: "POST", body: {} })).rejects.toMatchObject({ statusCode: 403 });
    expect(seen).toHaveLength(1);
    seen.length = 0;
    await expect(client("/bound/never", { method: "POST", body: {} })).rejects.toMatchObject({
      statusCode: 403,
      data: { code: "csrf_failed" },
    });
    expect(seen.map((request) => request.url)).toEqual(["/bound/never", "/api/get_csrf_token/", "/bound/never"]);
  });

  it("aborts after the timeout", async () => {
    const client = createHttp({ baseURL, timeout: 100, readCookie: () => "x" });
    await expect(client("/slow", { retry: 0 })).rejects.toThrow();
  });
});
