import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from "vitest";
import { eq, inArray } from "drizzle-orm";
import type { LightMyRequestResponse } from "fastify";
import { createTestApi, newUser, Visitor, type TestApi } from "../../tests/support/api.ts";
import { databaseKinds } from "../../tests/support/database.ts";
import { knownLoginIps, loginFailures, sessions, users } from "../../server/db/schema/index.ts";
import { loginAccountKey, throttleLimits } from "./throttle.server.ts";
import { hashToken } from "./service.ts";

/** The Set-Cookie line of the session cookie (a sign-in also sets a new CSRF token). */
function sessionSetCookie(response: LightMyRequestResponse): string {
  const lines = ([] as string[]).concat(response.headers["set-cookie"] ?? []);
  return lines.find((line) => line.startsWith("sessionid=")) ?? "";
}

describe.each(databaseKinds)("accounts API on %s", (kind) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi(kind);
  });
  afterAll(() => api.close());

  const visitor = (headers?: Record<string, string>) => new Visitor(api.app, headers);

  describe("CSRF", () => {
    it("hands out a token in the body and the csrftoken cookie", async () => {
      const v = visitor();
      const response = await v.get("/api/get_csrf_token/");
      expect(response.statusCode).toBe(200);
      const { csrftoken } = response.json();
      expect(csrftoken).toMatch(/^[\w-]+\.[\w-]+$/);
      expect(v.cookies.get("csrftoken")).toBe(csrftoken);
      expect(String(response.headers["set-cookie"])).toContain("SameSite=Lax");
    });

    it("rejects unsafe requests without the header, or with a forged one, with 403", async () => {
      const v = visitor({ "accept-language": "en" });
      const missing = await v.request("POST", "/api/Users/login/", { json: { username: "a", password: "b" }, csrf: false });
      expect(missing.statusCode).toBe(403);
      expect(missing.json()).toEqual({ code: "csrf_failed", message: "The security check failed. Please reload the page and try again." });
      await v.get("/api/get_csrf_token/");
      const forged = await v.request("POST", "/api/Users/login/", {
        json: { username: "a", password: "b" },
        headers: { "x-csrftoken": "abc.def" },
      });
      expect(forged.statusCode).toBe(403);
    });

    it("binds the token to the session: a token pair taken from another client is refused", async () => {
      const alice = visitor({ "accept-language": "en" });
      const bob = visitor({ "accept-language": "en" });
      expect((await alice.post("/api/Users/register/", newUser())).statusCode).toBe(201);
      expect((await bob.post("/api/Users/register/", newUser())).statusCode).toBe(201);
      const stolen = alice.cookies.get("csrftoken")!;
      const forged = await api.app.inject({
        method: "POST",
        url: "/api/Users/logout/",
        headers: {
          cookie: `sessionid=${bob.cookies.get("sessionid")}; csrftoken=${stolen}`,
          "x-csrftoken": stolen,
          "accept-language": "en",
        },
      });
      expect(forged.statusCode).toBe(403);
      expect(forged.json().code).toBe("csrf_failed");
      // A signed-out visitor's token does not work for a session either.
      const anonymous = (await visitor().get("/api/get_csrf_token/")).json().csrftoken;
      const planted = await api.app.inject({
        method: "POST",
        url: "/api/Users/logout/",
        headers: { cookie: `sessionid=${bob.cookies.get("sessionid")}; csrftoken=${anonymous}`, "x-csrftoken": anonymous },
      });
      expect(planted.statusCode).toBe(403);
      expect((await bob.get("/api/Users/LoginAuth/")).json().code).toBe(100);
      // Bob's own pair works.
      expect((await bob.post("/api/Users/logout/")).statusCode).toBe(204);
    });

    it("issues a new token at sign-in and at sign-out, and get_csrf_token hands out the session's own", async () => {
      const account = newUser();
      await visitor().post("/api/Users/register/", account);
      const v = visitor();
      const before = (await v.get("/api/get_csrf_token/")).json().csrftoken;
      expect((await v.get("/api/get_csrf_token/")).json().csrftoken).toBe(before);
      const login = await v.post("/api/Users/login/", { username: account.username, password: account.password });
      expect(login.statusCode).toBe(200);
      const signedIn = v.cookies.get("csrftoken")!;
      expect(signedIn).not.toBe(before);
      expect(String(login.headers["set-cookie"])).toContain("csrftoken=");
      expect((await v.get("/api/get_csrf_token/")).json()).toEqual({ csrftoken: signedIn });
      const oldToken = await api.app.inject({
        method: "POST",
        url: "/api/Users/logout/",
        headers: { "x-csrftoken": before, cookie: `sessionid=${v.cookies.get("sessionid")}; csrftoken=${before}` },
      });
      expect(oldToken.statusCode).toBe(403);
      expect((await v.post("/api/Users/logout/")).statusCode).toBe(204);
      const signedOut = v.cookies.get("csrftoken")!;
      expect(signedOut).not.toBe(signedIn);
      expect((await v.post("/api/Users/login/", { username: account.username, password: account.password })).statusCode).toBe(200);
    });

    it("cannot be skipped by percent-encoding the path", async () => {
      for (const path of ["/%61pi/Users/login/", "/%61%70%69/Users/logout/", "/api/%55sers/login/"]) {
        const sneaky = await visitor().request("POST", path, { json: { username: "a", password: "b" }, csrf: false });
        expect(sneaky.statusCode, path).toBe(403);
      }
    });

    it("localizes errors from the page path, then the lang cookie, then Accept-Language", async () => {
      const zh = await visitor().request("POST", "/api/Users/logout/", { csrf: false });
      expect(zh.json().message).toBe("安全校验失败，请刷新页面后重试。");
      const fromReferer = await visitor({ referer: "http://localhost:80/en/login" }).request("POST", "/api/Users/logout/", { csrf: false });
      expect(fromReferer.json().message).toMatch(/security check failed/);
      const fromCookie = await visitor({ cookie: "lang=en" }).request("POST", "/api/Users/logout/", {
        csrf: false,
        headers: { cookie: "lang=en" },
      });
      expect(fromCookie.json().message).toMatch(/security check failed/);
    });
  });

  describe("register", () => {
    it("creates the account, signs it in with a browser-session cookie and answers the current user", async () => {
      const v = visitor();
      const input = newUser();
      const response = await v.post("/api/Users/register/", input);
      expect(response.statusCode).toBe(201);
      const body = response.json();
      expect(body).toMatchObject({
        code: 100,
        username: input.username,
        email: input.email,
        sex: "secret",
        user_type: "Registered users",
        avatar: "/default-avatar.svg",
        sinecoin: 0,
      });
      expect(body).not.toHaveProperty("password_hash");
      const cookie = sessionSetCookie(response);
      expect(cookie).toMatch(/sessionid=[\w-]{40,}/);
      expect(cookie).toContain("HttpOnly");
      expect(cookie).not.toContain("Max-Age");
      const auth = await v.get("/api/Users/LoginAuth/");
      expect(auth.json()).toMatchObject({ code: 100, user_id: body.user_id, username: input.username });
      const [stored] = await api.database.db.select().from(users).where(eq(users.id, body.user_id));
      expect(stored!.passwordHash).toMatch(/^\$argon2id\$/);
    });

    it("reports taken usernames and emails, case-insensitively, and keeps nothing half-written", async () => {
      const first = newUser();
      await visitor().post("/api/Users/register/", first);
      const english = { "accept-language": "en" };
      const sameName = await visitor(english).post("/api/Users/register/", newUser({ username: first.username.toUpperCase() }));
      expect(sameName.statusCode).toBe(409);
      expect(sameName.json()).toMatchObject({ code: "username_exists", message: "Username already exists." });
      const sameEmail = await visitor(english).post("/api/Users/register/", newUser({ email: first.email.toUpperCase() }));
      expect(sameEmail.json()).toMatchObject({ code: "email_exists", message: "Email already exists." });
      const both = await visitor(english).post("/api/Users/register/", newUser({ username: first.username, email: first.email }));
      expect(both.json()).toMatchObject({
        code: "username_email_exist",
        message: "Username and email already exist.",
        fields: { username: "Username already exists.", email: "Email already exists." },
      });
      const rows = await api.database.db.select().from(users).where(eq(users.email, first.email));
      expect(rows).toHaveLength(1);
    });

    it.each([
      ["username too short", { username: "a" }, "username", "A username has 2 to 16 characters."],
      ["username too long", { username: "a".repeat(17) }, "username", "A username has 2 to 16 characters."],
      ["username with spaces", { username: "bad name" }, "username", "A username may contain only letters, digits, underscore and hyphen."],
      ["password too short", { password: "abc123", confirm_password: "abc123" }, "password", "A password has 8 to 20 characters."],
      [
        "password without digits",
        { password: "abcdefghij", confirm_password: "abcdefghij" },
        "password",
        "Password should contain letters and numbers",
      ],
      ["confirmation differs", { confirm_password: "secret124" }, "confirm_password", "Passwords are not matching!"],
      ["email invalid", { email: "not-an-email" }, "email", "Please enter the correct email."],
      ["gender unknown", { gender: "other" }, "gender", "Please choose a gender."],
      ["birthday not a real date", { birthday: "2001-02-30" }, "birthday", "Please enter a real date."],
      ["birthday in the future", { birthday: "2999-01-01" }, "birthday", "Please enter a real date."],
      ["country unknown", { country: "XX" }, "country", "Please choose a country or region."],
      ["wrong type", { username: 42 }, "username", "Please enter a username."],
    ])("rejects %s with a localized field message", async (_name, overrides, field, message) => {
      const response = await visitor({ "accept-language": "en" }).post("/api/Users/register/", newUser(overrides));
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ code: "validation_failed", fields: { [field]: message } });
    });

    it("answers in Chinese by default", async () => {
      const response = await visitor().post("/api/Users/register/", newUser({ confirm_password: "different1" }));
      expect(response.json().fields.confirm_password).toBe("两次输入的密码不一致！");
    });

    it("rejects unknown fields, malformed JSON, oversized bodies and other media types with 4xx", async () => {
      const v = visitor();
      const unknown = await v.post("/api/Users/register/", { ...newUser(), is_admin: true });
      expect(unknown.statusCode).toBe(400);
      const malformed = await v.request("POST", "/api/Users/register/", {
        body: "{not json",
        headers: { "content-type": "application/json" },
      });
      expect(malformed.statusCode).toBe(400);
      expect(malformed.json().code).toBe("bad_request");
      const huge = await v.request("POST", "/api/Users/register/", {
        body: JSON.stringify({ ...newUser(), username: "x".repeat(200_000) }),
        headers: { "content-type": "application/json" },
      });
      expect(huge.statusCode).toBe(413);
      expect(huge.json().code).toBe("payload_too_large");
      const text = await v.request("POST", "/api/Users/register/", { body: "username=a", headers: { "content-type": "text/csv" } });
      expect(text.statusCode).toBe(415);
      const array = await v.post("/api/Users/register/", [1, 2]);
      expect(array.statusCode).toBe(400);
    });

    it("answers a JSON null, a missing body or a bare value with a localized 400 (was a 500)", async () => {
      const v = visitor({ "accept-language": "en" });
      for (const path of ["/api/Users/register/", "/api/Users/login/"]) {
        const empty = await v.request("POST", path);
        const nothing = await v.request("POST", path, { body: "null", headers: { "content-type": "application/json" } });
        const bare = await v.request("POST", path, { body: '"text"', headers: { "content-type": "application/json" } });
        for (const response of [empty, nothing, bare]) {
          expect(response.statusCode, path).toBe(400);
          expect(["validation_failed", "bad_request"]).toContain(response.json().code);
          expect(response.json().message).toMatch(/not valid|malformed/);
        }
      }
    });

    it("refuses NUL characters, which PostgreSQL cannot store, with 400 (was a 500)", async () => {
      const v = visitor({ "accept-language": "en" });
      const login = await v.post("/api/Users/login/", { username: "a\u0000@x.com", password: "x" });
      expect(login.statusCode).toBe(400);
      expect(login.json()).toEqual({
        code: "invalid_characters",
        message: "What you sent contains characters that cannot be stored (a NUL or a broken Unicode character).",
      });
      const register = await v.post("/api/Users/register/", newUser({ country: "C\u0000N" }));
      expect(register.statusCode).toBe(400);
      const nested = await v.request("PATCH", "/api/Users/read_meg/answers/", { json: { list: [{ deep: "\u0000" }] } });
      expect(nested.statusCode).toBe(400);
    });

    it("answers another method on an API path with 405 and Allow, an unknown API path with 404", async () => {
      const v = visitor({ "accept-language": "en" });
      const put = await v.request("PUT", "/api/Users/login/", { json: { username: "a", password: "b" } });
      expect(put.statusCode).toBe(405);
      expect(put.headers.allow).toBe("POST");
      expect(put.json()).toEqual({ code: "method_not_allowed", message: "This method is not allowed here." });
      const get = await v.get("/api/Users/read_meg/answers/");
      expect([get.statusCode, get.headers.allow]).toEqual([405, "PATCH"]);
      const unknown = await v.get("/api/Users/nothing-here/");
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().code).toBe("not_found");
    });

    it("answers a path with broken percent-encoding with a localized 400, not Fastify's own shape", async () => {
      const en = await api.app.inject({ method: "GET", url: "/api/%ff", headers: { "accept-language": "en" } });
      expect(en.statusCode).toBe(400);
      expect(en.json()).toEqual({ code: "bad_request", message: "The request is malformed." });
      const zh = await api.app.inject({ method: "GET", url: "/api/Users/%E0%A4%A" });
      expect(zh.json().message).toBe("请求格式不正确。");
      const page = await api.app.inject({ method: "GET", url: "/en/%" });
      expect(page.statusCode).toBe(400);
      expect(page.headers["content-type"]).toContain("text/html");
      expect(page.body).toContain('<html lang="en">');
      expect(page.body).toContain("Return to home page");
    });
  });

  describe("login and logout", () => {
    const account = newUser();
    beforeAll(async () => {
      await new Visitor(api.app).post("/api/Users/register/", account);
    });

    it("signs in by username or email; stay-signed-in gives a 30-day cookie, otherwise a browser-session one", async () => {
      const short = await visitor().post("/api/Users/login/", { username: account.username, password: account.password });
      expect(short.statusCode).toBe(200);
      expect(short.json()).toMatchObject({ code: 100, username: account.username });
      expect(sessionSetCookie(short)).not.toContain("Max-Age");
      const long = await visitor().post("/api/Users/login/", {
        username: account.email.toUpperCase(),
        password: account.password,
        remember: true,
      });
      expect(long.statusCode).toBe(200);
      expect(sessionSetCookie(long)).toContain("Max-Age=2592000");
    });

    it("issues a new session id at every login and revokes it at logout", async () => {
      const v = visitor();
      await v.post("/api/Users/login/", { username: account.username, password: account.password });
      const first = v.cookies.get("sessionid");
      await v.post("/api/Users/login/", { username: account.username, password: account.password });
      const second = v.cookies.get("sessionid");
      expect(first).toBeTruthy();
      expect(second).not.toBe(first);
      const logout = await v.post("/api/Users/logout/");
      expect(logout.statusCode).toBe(204);
      expect(v.cookies.has("sessionid")).toBe(false);
      const stolen = new Visitor(api.app, { cookie: `sessionid=${second}` });
      expect((await stolen.get("/api/Users/LoginAuth/")).json()).toMatchObject({ code: 101, user_id: 0 });
    });

    it("ends the session the client had when it signs in again", async () => {
      const v = visitor();
      await v.post("/api/Users/login/", { username: account.username, password: account.password });
      const first = v.cookies.get("sessionid");
      await v.post("/api/Users/login/", { username: account.email, password: account.password });
      expect(v.cookies.get("sessionid")).not.toBe(first);
      expect((await v.get("/api/Users/LoginAuth/")).json().code).toBe(100);
      const old = new Visitor(api.app, { cookie: `sessionid=${first}` });
      expect((await old.get("/api/Users/LoginAuth/")).json()).toMatchObject({ code: 101, user_id: 0 });
      const rows = await api.database.db
        .select()
        .from(sessions)
        .where(eq(sessions.tokenHash, hashToken(first!)));
      expect(rows).toHaveLength(0);
    });

    it("says the same thing for a wrong password and an unknown account", async () => {
      const wrong = await visitor({ "accept-language": "en" }).post("/api/Users/login/", {
        username: account.username,
        password: "wrongpass1",
      });
      const unknown = await visitor({ "accept-language": "en" }).post("/api/Users/login/", {
        username: "nobody_here",
        password: "wrongpass1",
      });
      expect(wrong.statusCode).toBe(401);
      expect(wrong.json()).toEqual({ code: "invalid_credentials", message: "Invalid or incorrect username or password." });
      expect(unknown.json()).toEqual(wrong.json());
    });

    it("slows repeated failures from one address without locking the account for others", async () => {
      const target = newUser();
      await visitor().post("/api/Users/register/", target);
      const attacker = { "x-forwarded-for": "ignored" };
      const statuses: number[] = [];
      // The clock stands still, so the second-long wait after the fifth failure cannot run out on a slow machine.
      vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
      const limited = await (async () => {
        try {
          for (let attempt = 0; attempt < 7; attempt++) {
            const response = await visitor(attacker).post("/api/Users/login/", { username: target.username, password: "wrongpass1" });
            statuses.push(response.statusCode);
          }
          return await visitor({ "accept-language": "en" }).post("/api/Users/login/", {
            username: target.username,
            password: target.password,
          });
        } finally {
          vi.useRealTimers();
        }
      })();
      expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429]);
      expect(limited.statusCode).toBe(429);
      // Counts go by the name typed: the email answers as any unknown email would, so a throttled
      // username never tells which email belongs to it (see enumeration.test.ts).
      const byEmail = await visitor().post("/api/Users/login/", { username: target.email.toUpperCase(), password: "wrongpass1" });
      expect(byEmail.statusCode).toBe(401);
      expect(limited.headers["retry-after"]).toBeDefined();
      expect(limited.json().message).toMatch(/Too many attempts/);
      // The same account from another address is not locked out.
      const elsewhere = await api.app.inject({
        method: "POST",
        url: "/api/Users/login/",
        remoteAddress: "10.9.8.7",
        headers: await csrfHeaders(),
        payload: { username: target.username, password: target.password },
      });
      expect(elsewhere.statusCode).toBe(200);
    });

    it("evaluates at most five of 50 simultaneous wrong passwords; the owner still signs in where they did before", async () => {
      const owner = newUser();
      await visitor().post("/api/Users/register/", owner);
      const home = new Visitor(api.app, { "accept-language": "en" }, { remoteAddress: "10.20.0.1" });
      expect((await home.post("/api/Users/login/", { username: owner.username, password: owner.password })).statusCode).toBe(200);
      const signIn = () => home.post("/api/Users/login/", { username: owner.username, password: owner.password });

      // The clock stands still during a burst: however slowly this machine answers, the burst is
      // all "at once", so the wait after the fifth failure never runs out in the middle of it.
      vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
      try {
        const burst = async (remoteAddress: string) => {
          const attacker = new Visitor(api.app, {}, { remoteAddress });
          await attacker.csrfToken();
          const responses = await Promise.all(
            Array.from({ length: 50 }, () => attacker.post("/api/Users/login/", { username: owner.username, password: "wrongpass1" })),
          );
          return responses.map((response) => response.statusCode);
        };
        const elsewhere = await burst("10.20.0.66");
        expect(elsewhere.filter((status) => status === 401)).toHaveLength(5);
        expect(elsewhere.filter((status) => status === 429)).toHaveLength(45);
        expect((await signIn()).statusCode).toBe(200);

        // The same burst from the owner's own address (a shared network) slows them for a moment only.
        const shared = await burst("10.20.0.1");
        expect(shared.filter((status) => status === 401)).toHaveLength(5);
        const waiting = await signIn();
        expect(waiting.statusCode).toBe(429);
        expect(Number(waiting.headers["retry-after"])).toBe(1);
        vi.setSystemTime(Date.now() + 1000);
        expect((await signIn()).statusCode).toBe(200);
      } finally {
        vi.useRealTimers();
      }
    });

    it("answers an unknown name as an existing account once the account limit is reached (no enumeration)", async () => {
      const target = newUser();
      await visitor().post("/api/Users/register/", target);
      const ghost = `ghost_${target.username}`.slice(0, 16);
      // 99 failures from everywhere else in the last hour, for both names; the clock stands still
      // from here, so both waits are counted from the same moment however slowly the tries run.
      const now = new Date();
      vi.useFakeTimers({ toFake: ["Date"], now });
      onTestFinished(() => {
        vi.useRealTimers();
      });
      const counted = { failures: throttleLimits.accountFailures - 1, windowStartedAt: now, lastFailureAt: now };
      await api.database.db.insert(loginFailures).values([
        { key: `account:${loginAccountKey(target.username)}`, ...counted },
        { key: `account:${loginAccountKey(ghost)}`, ...counted },
      ]);
      const attempt = (username: string, remoteAddress: string) =>
        new Visitor(api.app, { "accept-language": "en" }, { remoteAddress }).post("/api/Users/login/", {
          username,
          password: "wrongpass1",
        });
      const lastExisting = await attempt(target.username, "10.30.0.1");
      const lastUnknown = await attempt(ghost, "10.30.0.2");
      expect([lastExisting.statusCode, lastUnknown.statusCode]).toEqual([401, 401]);
      const existing = await attempt(target.username, "10.30.0.3");
      const unknown = await attempt(ghost, "10.30.0.4");
      expect(existing.statusCode).toBe(429);
      expect(unknown.statusCode).toBe(429);
      expect(unknown.json()).toEqual(existing.json());
      expect(unknown.headers["retry-after"]).toBe(existing.headers["retry-after"]);
    });

    async function csrfHeaders() {
      const v = visitor();
      const { csrftoken } = (await v.get("/api/get_csrf_token/")).json();
      return { "x-csrftoken": csrftoken, cookie: `csrftoken=${csrftoken}`, "content-type": "application/json" };
    }

    it("validates the login body", async () => {
      const empty = await visitor({ "accept-language": "en" }).post("/api/Users/login/", { username: "", password: "" });
      expect(empty.statusCode).toBe(400);
      expect(empty.json().fields).toEqual({ username: "Please enter your username or email.", password: "Please enter a password." });
      const wrongType = await visitor().post("/api/Users/login/", {
        username: account.username,
        password: account.password,
        remember: "yes",
      });
      expect(wrongType.statusCode).toBe(400);
    });
  });

  describe("LoginAuth", () => {
    it("answers another code and user_id 0 when signed out", async () => {
      const response = await visitor().get("/api/Users/LoginAuth/");
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ code: 101, user_id: 0 });
    });

    it("ignores expired sessions", async () => {
      const v = visitor();
      const body = (await v.post("/api/Users/register/", newUser())).json();
      await api.database.db
        .update(sessions)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(sessions.userId, body.user_id));
      expect((await v.get("/api/Users/LoginAuth/")).json().code).toBe(101);
    });

    // The spec's fields, and the header's small avatar (64 px) beside the profile's.
    it("returns every current-user field of the spec", async () => {
      const v = visitor();
      await v.post("/api/Users/register/", newUser());
      const keys = Object.keys((await v.get("/api/Users/LoginAuth/")).json()).sort();
      expect(keys).toEqual(
        [
          "code",
          "user_id",
          "user_type",
          "avatar",
          "username",
          "nickname",
          "email",
          "date",
          "sex",
          "self_description",
          "intelligence_score",
          "gold",
          "sinecoin",
          "school",
          "profession",
          "Hogwarts_school",
          "sinecoin_total_profit",
          "sinecoin_total_cashout",
          "cashoutable_sinecoin_profit",
          "avatar_small",
        ].sort(),
      );
    });
  });
});

describe.each(databaseKinds)("sign-up limit on %s", (kind) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi(kind, { env: { SIGNUPS_PER_HOUR: "3" } });
  });
  afterAll(() => api.close());

  const signUp = (remoteAddress: string, user = newUser()) =>
    new Visitor(api.app, { "accept-language": "en" }, { remoteAddress }).post("/api/Users/register/", user);

  it("lets one address create three accounts an hour, even when 50 ask at once", async () => {
    const responses = await Promise.all(Array.from({ length: 50 }, () => signUp("10.50.0.1")));
    const statuses = responses.map((response) => response.statusCode);
    expect(statuses.filter((status) => status === 201)).toHaveLength(3);
    expect(statuses.filter((status) => status === 429)).toHaveLength(47);
    const refused = responses.find((response) => response.statusCode === 429)!;
    expect(refused.json()).toEqual({ code: "rate_limited", message: "Too many requests. Please try again later." });
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(3500);
    const created = responses.filter((response) => response.statusCode === 201).map((response) => response.json().user_id as number);
    expect(await api.database.db.select({ id: users.id }).from(users).where(inArray(users.id, created))).toHaveLength(3);
    // Another address is not affected.
    expect((await signUp("10.50.0.2")).statusCode).toBe(201);
  });

  it("counts only accounts created, not refused attempts", async () => {
    const first = newUser();
    expect((await signUp("10.50.0.3", first)).statusCode).toBe(201);
    for (let index = 0; index < 3; index++) expect((await signUp("10.50.0.3", newUser({ username: first.username }))).statusCode).toBe(409);
    expect((await signUp("10.50.0.3")).statusCode).toBe(201);
    expect((await signUp("10.50.0.3")).statusCode).toBe(201);
    expect((await signUp("10.50.0.3")).statusCode).toBe(429);
  });

  it("counts a new account as signed in from its address", async () => {
    const response = await signUp("10.50.0.4");
    const known = await api.database.db.select().from(knownLoginIps).where(eq(knownLoginIps.userId, response.json().user_id));
    expect(known.map((row) => row.ip)).toEqual(["10.50.0.4"]);
  });
});
