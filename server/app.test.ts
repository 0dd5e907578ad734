import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createTestApi, newUser, Visitor, type TestApi } from "../tests/support/api.ts";
import { createTestDatabase, type TestDatabase } from "../tests/support/database.ts";
import { buildApp } from "./app.ts";
import { loadConfig } from "./config.ts";
import { sessions } from "./db/schema/index.ts";

describe("API surface", () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi("pglite");
  });
  afterAll(() => api.close());

  it("publishes an OpenAPI document generated from the request schemas", async () => {
    const response = await api.app.inject({ method: "GET", url: "/api/docs/json" });
    expect(response.statusCode).toBe(200);
    const document = response.json();
    expect(document.openapi).toMatch(/^3\./);
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining([
        "/api/Users/register/",
        "/api/Users/login/",
        "/api/Users/LoginAuth/",
        "/api/Users/get_unread",
        "/api/Users/read_meg/{category}/",
      ]),
    );
    const register = document.paths["/api/Users/register/"].post.requestBody.content["application/json"].schema;
    expect(register.required).toEqual(
      expect.arrayContaining(["username", "email", "password", "confirm_password", "gender", "birthday", "country"]),
    );
  });

  it("reports health for load balancers", async () => {
    const response = await api.app.inject({ method: "GET", url: "/api/health" });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: "ok" });
  });

  it("answers unknown API paths with a JSON 404 in the visitor's language", async () => {
    const response = await api.app.inject({ method: "GET", url: "/api/nothing/here", headers: { "accept-language": "en" } });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ code: "not_found", message: "What you asked for does not exist." });
  });

  it("lists the seeded circle tree", async () => {
    const response = await api.app.inject({ method: "GET", url: "/api/circles/", headers: { "accept-language": "en" } });
    const [root] = response.json().circles;
    expect(root).toMatchObject({ id: 1, name: "Global Village" });
    expect(root.children.map((child: { name: string }) => child.name)).toEqual([
      "Mathematics",
      "Literature",
      "Programming",
      "Artificial Intelligence",
      "Cybersecurity",
      "Statistics & Probability",
    ]);
    const literature = root.children[1];
    expect(literature.children.map((child: { name: string }) => child.name)).toEqual(["Poetry", "Fiction", "Prose", "Drama"]);
    const missing = await api.app.inject({ method: "GET", url: "/api/circles/99999/" });
    expect(missing.statusCode).toBe(404);
    const invalid = await api.app.inject({ method: "GET", url: "/api/circles/abc/" });
    expect(invalid.statusCode).toBe(400);
  });
});

describe("client addresses behind proxies", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase("pglite");
  });
  afterAll(() => database.dispose());

  /** The address a sign-up's session records: the one throttling and sign-up limits count by. */
  async function addressSeen(env: Record<string, string>, forwardedFor: string): Promise<string> {
    const config = loadConfig({
      DATA_DIR: mkdtempSync(path.join(tmpdir(), "circles-test-")),
      SESSION_SECRET: "test-secret",
      CAPTCHA: "off",
      ...env,
    });
    const app = await buildApp({ config, database });
    try {
      const response = await new Visitor(app, { "x-forwarded-for": forwardedFor }).post("/api/Users/register/", newUser());
      expect(response.statusCode).toBe(201);
      const [session] = await database.db.select({ ip: sessions.ip }).from(sessions).where(eq(sessions.userId, response.json().user_id));
      return session!.ip;
    } finally {
      await app.close();
    }
  }

  it("with one trusted hop takes the address that proxy saw, not the client's own left-most entry", async () => {
    expect(await addressSeen({ TRUST_PROXY: "1" }, "6.6.6.6, 1.2.3.4")).toBe("1.2.3.4");
  });

  it("with a list of proxies skips those and takes the first address from the right that is not one", async () => {
    expect(await addressSeen({ TRUST_PROXY: "127.0.0.1, 10.0.0.0/8" }, "6.6.6.6, 1.2.3.4, 10.1.2.3")).toBe("1.2.3.4");
  });

  it("without TRUST_PROXY ignores X-Forwarded-For", async () => {
    expect(await addressSeen({}, "6.6.6.6, 1.2.3.4")).toBe("127.0.0.1");
  });
});
