import { connect } from "node:net";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApi, newUser, Visitor, type TestApi } from "../../tests/support/api.ts";
import { oneDatabaseKind } from "../../tests/support/database.ts";

/**
 * Page requests against the real app with the built pages, in this process (app.inject): the
 * answers to hostile or malformed requests, body limits and caching headers.
 */
describe.each(oneDatabaseKind)("page requests on %s", (kind) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi(kind, { pages: true, env: { SIGNUPS_PER_HOUR: "3" } });
  });
  afterAll(() => api.close());

  let addresses = 0;
  /** Each visitor comes from its own address, so sign-ups here stay under the limit this app has. */
  const visitor = (headers?: Record<string, string>) => new Visitor(api.app, headers, { remoteAddress: `10.60.1.${++addresses}` });

  describe("the language switch", () => {
    it.each(["/..//evil.com", "/%2e%2e/%2e%2e//evil.com", "/.//evil.com", "/en//evil.com", "/en/..//evil.com", "/%2F/evil.com"])(
      "never redirects off the site for next=%s",
      async (next) => {
        for (const lang of ["zh-CN", "en"]) {
          const response = await api.app.inject({ method: "GET", url: `/set-language?lang=${lang}&next=${next}` });
          expect(response.statusCode).toBe(302);
          const location = String(response.headers.location);
          expect(location.startsWith("/"), location).toBe(true);
          expect(/^\/[/\\]/.test(location), location).toBe(false);
          expect(new URL(location, "http://circles.test").host).toBe("circles.test");
        }
      },
    );

    it("still goes to the same page in the other language", async () => {
      const response = await api.app.inject({ method: "GET", url: "/set-language?lang=en&next=/circles/../about" });
      expect(response.headers.location).toBe("/en/about");
    });
  });

  describe("requests the page renderer cannot take", () => {
    it("answers TRACE and other foreign methods with a localized 405 page, not a 500", async () => {
      for (const [url, text] of [
        ["/about", "不支持此请求方法"],
        ["/en/about", "This method is not allowed here"],
      ] as const) {
        const response = await api.app.inject({ method: "TRACE", url });
        expect(response.statusCode, url).toBe(405);
        expect(response.headers["content-type"]).toContain("text/html");
        expect(response.headers.allow).toBe("GET, HEAD, POST");
        expect(response.body).toContain(text);
      }
    });

    it("answers a Host it cannot make a URL of with a localized 400 page", async () => {
      for (const host of ["evil.com:99999", "a b", "[::1"]) {
        const response = await api.app.inject({ method: "GET", url: "/en/about", headers: { host } });
        expect(response.statusCode, host).toBe(400);
        expect(response.headers["content-type"]).toContain("text/html");
        expect(response.body).toContain("The request is malformed.");
      }
      const zh = await api.app.inject({ method: "GET", url: "/about", headers: { host: "evil.com:99999" } });
      expect(zh.body).toContain("请求格式不正确。");
    });

    it("answers an HTTP/1.0 request without Host with 400 on a real socket", async () => {
      await api.app.listen({ port: 0, host: "127.0.0.1" });
      const { port } = api.app.server.address() as AddressInfo;
      const answer = await new Promise<string>((resolve, reject) => {
        const socket = connect(port, "127.0.0.1", () => socket.write("GET /en/about HTTP/1.0\r\n\r\n"));
        let text = "";
        socket.on("data", (chunk: Buffer) => (text += chunk.toString()));
        socket.on("end", () => resolve(text));
        socket.on("error", reject);
      });
      expect(answer.split("\r\n")[0]).toMatch(/^HTTP\/1\.[01] 400 /);
      expect(answer).toContain("The request is malformed.");
    });
  });

  describe("page form bodies", () => {
    it("refuses a 1 MB form post with a localized 413 before the CSRF check", async () => {
      const v = visitor();
      const body = `username=demo&password=${"x".repeat(1024 * 1024)}`;
      const response = await v.request("POST", "/en/login", {
        body,
        headers: { "content-type": "application/x-www-form-urlencoded" },
        csrf: false,
      });
      expect(response.statusCode).toBe(413);
      expect(response.headers["content-type"]).toContain("text/html");
      expect(response.body).toContain("What you sent is too large.");
    });

    it("refuses an oversized body without Content-Length too, and one without a content type", async () => {
      const chunked = await api.app.inject({
        method: "POST",
        url: "/login",
        headers: { "content-type": "application/x-www-form-urlencoded", "transfer-encoding": "chunked" },
        payload: Readable.from(
          (function* () {
            for (let index = 0; index < 20; index++) yield Buffer.alloc(16 * 1024, "a");
          })(),
        ),
      });
      expect(chunked.statusCode).toBe(413);
      expect(chunked.body).toContain("提交的内容过大");
      const untyped = await api.app.inject({ method: "POST", url: "/login", payload: Buffer.alloc(200 * 1024, "a") });
      expect(untyped.statusCode).toBe(413);
    });

    it("lets a page listed with a larger limit take more, in both languages and through data requests", async () => {
      const roomy = await createTestApi("pglite", { pages: true, pageBodyLimits: { "/login": 256 * 1024 } });
      try {
        const post = (url: string) =>
          roomy.app.inject({
            method: "POST",
            url,
            headers: { "content-type": "application/x-www-form-urlencoded" },
            payload: `a=${"x".repeat(200 * 1024)}`,
          });
        for (const url of ["/login", "/en/login", "/login.data", "/en/login.data"]) expect((await post(url)).statusCode, url).toBe(403);
        expect((await post("/register")).statusCode).toBe(413);
      } finally {
        await roomy.close();
      }
    });

    it("still takes ordinary forms", async () => {
      const v = visitor({ "accept-language": "en" });
      const token = await v.csrfToken();
      const response = await v.postForm("/en/login", { csrftoken: token, username: "nobody_at_all", password: "wrongpass1" });
      expect(response.statusCode).toBe(401);
      expect(response.body).toContain("Invalid or incorrect username or password.");
    });
  });

  describe("pages for a signed-in viewer", () => {
    it("are private and never stored, whatever the route (documents and data requests)", async () => {
      const v = visitor();
      expect((await v.post("/api/Users/register/", newUser())).statusCode).toBe(201);
      for (const url of ["/account/home", "/", "/en", "/_root.data", "/en.data", "/circles", "/about.data", "/no-such-page"]) {
        const response = await v.get(url);
        expect(response.statusCode, url).toBeLessThan(500);
        expect(response.headers["cache-control"], url).toBe("private, no-store");
      }
    });

    it("leave anonymous pages shareable", async () => {
      const response = await visitor().get("/circles");
      expect(response.statusCode).toBe(200);
      expect(String(response.headers["cache-control"] ?? "")).not.toMatch(/private|no-store/);
    });
  });

  describe("sign-ups through the page form", () => {
    const form = (token: string) => {
      const user = newUser();
      return {
        csrftoken: token,
        username: user.username,
        email: user.email,
        password: user.password,
        confirm_password: user.password,
        gender: "secret",
        birthday: user.birthday,
        country: user.country,
      };
    };

    it("share one per-address count with the API", async () => {
      const address = "10.60.0.1";
      const api1 = new Visitor(api.app, { "accept-language": "en" }, { remoteAddress: address });
      expect((await api1.post("/api/Users/register/", newUser())).statusCode).toBe(201);
      for (let index = 0; index < 2; index++) {
        const page = new Visitor(api.app, { "accept-language": "en" }, { remoteAddress: address });
        await page.get("/en/register");
        const created = await page.postForm("/en/register", form(page.cookies.get("csrftoken")!));
        expect(created.statusCode).toBe(302);
        expect(page.cookies.has("sessionid")).toBe(true);
      }
      const page = new Visitor(api.app, { "accept-language": "en" }, { remoteAddress: address });
      await page.get("/en/register");
      const refused = await page.postForm("/en/register", form(page.cookies.get("csrftoken")!));
      expect(refused.statusCode).toBe(429);
      expect(refused.body).toContain("Too many requests. Please try again later.");
      expect(page.cookies.has("sessionid")).toBe(false);
      expect((await new Visitor(api.app, {}, { remoteAddress: address }).post("/api/Users/register/", newUser())).statusCode).toBe(429);
    });
  });

  describe("CSRF tokens of page forms", () => {
    it("are renewed at sign-in and sign-out by the page forms", async () => {
      const account = newUser();
      expect((await visitor().post("/api/Users/register/", account)).statusCode).toBe(201);
      const v = visitor();
      await v.get("/en/login");
      const before = v.cookies.get("csrftoken")!;
      const login = await v.postForm("/en/login", { csrftoken: before, username: account.username, password: account.password });
      expect(login.statusCode).toBe(302);
      const signedIn = v.cookies.get("csrftoken")!;
      expect(signedIn).not.toBe(before);
      // The old token no longer works for the new session.
      expect((await v.postForm("/en/logout", { csrftoken: before })).statusCode).toBe(403);
      const logout = await v.postForm("/en/logout", { csrftoken: signedIn });
      expect(logout.statusCode).toBe(302);
      expect(v.cookies.has("sessionid")).toBe(false);
      expect(v.cookies.get("csrftoken")).not.toBe(signedIn);
    });

    it("refuse a token pair taken from another client's session", async () => {
      const alice = visitor();
      const bob = visitor();
      expect((await alice.post("/api/Users/register/", newUser())).statusCode).toBe(201);
      expect((await bob.post("/api/Users/register/", newUser())).statusCode).toBe(201);
      const stolen = alice.cookies.get("csrftoken")!;
      const forged = await api.app.inject({
        method: "POST",
        url: "/logout",
        headers: {
          cookie: `sessionid=${bob.cookies.get("sessionid")}; csrftoken=${stolen}`,
          "content-type": "application/x-www-form-urlencoded",
        },
        payload: `csrftoken=${encodeURIComponent(stolen)}`,
      });
      expect(forged.statusCode).toBe(403);
      expect((await bob.get("/api/Users/LoginAuth/")).json().code).toBe(100);
    });
  });
});
