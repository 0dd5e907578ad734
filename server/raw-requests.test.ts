import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApi, type TestApi } from "../tests/support/api.ts";

/**
 * What clients send that Node's HTTP parser or the body limits refuse, over a real socket (the
 * in-process inject never meets the parser): raw UTF-8 in a URL, bodies far over the limit.
 */
describe("raw requests on a real socket", () => {
  let api: TestApi;
  let port: number;
  let csrfHeaders = "";
  beforeAll(async () => {
    api = await createTestApi("pglite");
    const token = (await api.app.inject({ method: "GET", url: "/api/get_csrf_token/" })).json().csrftoken as string;
    csrfHeaders = `Cookie: csrftoken=${token}\r\nX-CSRFToken: ${token}\r\n`;
    await api.app.listen({ port: 0, host: "127.0.0.1" });
    port = (api.app.server.address() as { port: number }).port;
  });
  afterAll(() => api.close());

  /** Writes `head` (and then `body` in 64 KiB pieces), answers everything read until the server closes. */
  function exchange(head: Buffer | string, body?: { bytes: number }): Promise<{ text: string; sentBytes: number }> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, "127.0.0.1");
      const chunks: Buffer[] = [];
      let sentBytes = 0;
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new Error(`no close; read so far: ${Buffer.concat(chunks).toString().slice(0, 300)}`));
      }, 20_000);
      socket.on("data", (chunk: Buffer) => chunks.push(chunk));
      socket.on("error", () => undefined);
      socket.on("close", () => {
        clearTimeout(timer);
        resolve({ text: Buffer.concat(chunks).toString("utf8"), sentBytes });
      });
      socket.write(head);
      if (!body) return;
      // Like many clients, this one reads the answer only once it has sent everything.
      socket.pause();
      const piece = Buffer.alloc(64 * 1024, "a");
      const pump = () => {
        while (sentBytes < body.bytes && !socket.destroyed) {
          sentBytes += piece.length;
          if (!socket.write(piece)) return socket.once("drain", pump);
        }
        socket.resume();
      };
      pump();
    });
  }

  it("redirects a GET whose URL carries raw UTF-8 to the same URL percent-encoded", async () => {
    const head = Buffer.concat([Buffer.from("GET /search?q="), Buffer.from("数学", "utf8"), Buffer.from(" HTTP/1.1\r\nHost: x\r\n\r\n")]);
    const { text } = await exchange(head);
    expect(text).toMatch(/^HTTP\/1\.1 302 Found\r\n/);
    expect(text).toContain("\r\nLocation: /search?q=%E6%95%B0%E5%AD%A6\r\n");
    const english = Buffer.concat([
      Buffer.from("GET /en/circles/"),
      Buffer.from("圈子", "utf8"),
      Buffer.from(" HTTP/1.1\r\nHost: x\r\n\r\n"),
    ]);
    expect((await exchange(english)).text).toContain("\r\nLocation: /en/circles/%E5%9C%88%E5%AD%90\r\n");
  });

  it("answers other unparsable requests with a localized 400: a page, or JSON under /api", async () => {
    const raw = (method: string, path: string, headers = "") =>
      Buffer.concat([Buffer.from(`${method} ${path}`), Buffer.from("数学", "utf8"), Buffer.from(` HTTP/1.1\r\nHost: x\r\n${headers}\r\n`)]);
    const page = await exchange(raw("POST", "/en/search?q="));
    expect(page.text).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(page.text).toContain("text/html");
    expect(page.text).toContain("<p>The request is malformed.</p>");
    expect((await exchange(raw("POST", "/search?q="))).text).toContain("<p>请求格式不正确。</p>");
    const json = await exchange(raw("POST", "/api/circles/?q=", "Accept-Language: en\r\n"));
    expect(json.text).toContain("application/json");
    expect(JSON.parse(json.text.split("\r\n\r\n")[1]!)).toEqual({ code: "bad_request", message: "The request is malformed." });
    expect((await exchange("GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + "a".repeat(20_000) + "\r\n\r\n")).text).toMatch(/^HTTP\/1\.1 431 /);
  });

  const formHead = (length: number, expectContinue: boolean) =>
    `POST /api/Users/login/ HTTP/1.1\r\nHost: x\r\n${csrfHeaders}Accept-Language: en\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n` +
    (expectContinue ? "Expect: 100-continue\r\n" : "") +
    "\r\n";

  it("refuses 20 MB announced with Expect: 100-continue at once: no 100 Continue, a localized 413, then closes", async () => {
    const { text } = await exchange(formHead(20 * 1024 * 1024, true));
    expect(text).not.toContain("100 Continue");
    expect(text).toMatch(/^HTTP\/1\.1 413 Payload Too Large\r\n/);
    expect(text.toLowerCase()).toContain("\r\nconnection: close\r\n");
    expect(JSON.parse(text.split("\r\n\r\n")[1]!)).toEqual({ code: "payload_too_large", message: "What you sent is too large." });
  });

  it("lets a client sending 20 MB without asking first read the whole 413 before the connection closes", async () => {
    const { text, sentBytes } = await exchange(formHead(20 * 1024 * 1024, false), { bytes: 20 * 1024 * 1024 });
    expect(text).toMatch(/^HTTP\/1\.1 413 Payload Too Large\r\n/);
    expect(JSON.parse(text.split("\r\n\r\n")[1]!)).toMatchObject({ code: "payload_too_large" });
    expect(sentBytes).toBeGreaterThanOrEqual(20 * 1024 * 1024);
  });

  it("still invites a body within the limit with 100 Continue when the route reads it", async () => {
    const body = JSON.stringify({ username: "nobody_here", password: "wrongpass1" });
    const socket = connect(port, "127.0.0.1");
    const text = await new Promise<string>((resolve, reject) => {
      let read = "";
      socket.on("error", reject);
      socket.on("data", (chunk) => {
        read += chunk.toString();
        if (read === "HTTP/1.1 100 Continue\r\n\r\n") socket.write(body);
        if (/\r\n\r\n[\s\S]*\}$/.test(read.replace("HTTP/1.1 100 Continue\r\n\r\n", ""))) resolve(read);
      });
      socket.write(formHead(Buffer.byteLength(body), true).replace("\r\n\r\n", "\r\nConnection: close\r\n\r\n"));
    });
    socket.destroy();
    expect(text.startsWith("HTTP/1.1 100 Continue\r\n\r\n")).toBe(true);
    // The body arrived and was read: the answer is about the sign-in itself.
    expect(text).toContain("HTTP/1.1 401 Unauthorized");
    expect(text).toContain('"code":"invalid_credentials"');
  });
});
