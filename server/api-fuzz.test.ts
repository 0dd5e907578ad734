import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LightMyRequestResponse } from "fastify";
import { createTestApi, type TestApi } from "../tests/support/api.ts";
import {
  addCategory,
  addMember,
  createCircle,
  createComment,
  createEntry,
  createUser,
  signedInVisitor,
} from "../tests/support/factories.ts";
import { oneDatabaseKind } from "../tests/support/database.ts";
import {
  hostileBodies,
  hostileJsonValues,
  hostilePathValues,
  hostileQueryValues,
  jsonSchemaOf,
  sampleValue,
  toJsonPayload,
} from "../tests/support/fuzz.ts";

/**
 * Every API route, as the app declares it, gets hostile input derived from its own schemas: each
 * body field, query parameter and path parameter in turn (the others kept plausible), and bodies
 * that are not objects at all. No answer may be a 5xx; every refusal is a localized `{ code, message }`.
 */
describe.each(oneDatabaseKind)("schema-driven fuzz of every API route on %s", (kind) => {
  let api: TestApi;
  let fixtures: Record<string, string>;
  let owner: { id: number; username: string };
  let requestCount = 0;
  let address = 0;
  const failures: string[] = [];

  beforeAll(async () => {
    api = await createTestApi(kind);
    const db = api.database.db;
    const user = await createUser(db, { userType: "SVIP users" });
    const other = await createUser(db);
    owner = user;
    const circle = await createCircle(db);
    await addMember(db, circle.id, user.id, "founder");
    await addMember(db, circle.id, other.id);
    const category = await addCategory(db, circle.id);
    const visitor = await signedInVisitor(api.app, db, user);
    const writing = await visitor.post(`/api/circles/${circle.id}/writings/`, { title: "模糊测试", content: "正文 $x^2$" });
    expect(writing.statusCode, writing.body).toBe(201);
    const book = await visitor.post(`/api/circles/${circle.id}/books/`, { name: "模糊之书", description: "简介" });
    expect(book.statusCode, book.body).toBe(201);
    const chapter = await visitor.post(`/api/books/${book.json().id}/chapters/`, { title: "第一章", content: "正文" });
    expect(chapter.statusCode, chapter.body).toBe(201);
    const comment = await createComment(db, writing.json().id as number, other);
    await createEntry(db, circle.id, user);
    fixtures = {
      id: String(circle.id),
      cid: String(circle.id),
      user_id: String(other.id),
      category_id: String(category.id),
      username: other.username,
      key: "fuzz-draft",
      category: "comment",
      chapter_id: String(chapter.json().id),
      "*": "index.html",
    };
    fixtures.bookId = String(book.json().id);
    fixtures.writingId = String(writing.json().id);
    fixtures.commentId = String(comment.id);
  }, 300_000);
  afterAll(() => api.close());

  /** The real id a route's `:id` names: a circle, book, writing or comment, by the route's path. */
  function paramValue(url: string, name: string): string {
    if (name === "id" && url.startsWith("/api/books/")) return fixtures.bookId!;
    if (name === "id" && url.startsWith("/api/writings/")) return fixtures.writingId!;
    if (name === "id" && url.startsWith("/api/comments/")) return fixtures.commentId!;
    return fixtures[name] ?? "1";
  }

  function pathWith(url: string, replaced?: { name: string; value: string }): string {
    return url.replace(/:([a-z_]+)|\*/gi, (whole, name: string | undefined) => {
      const param = name ?? "*";
      if (replaced?.name === param) return replaced.value;
      return encodeURIComponent(paramValue(url, param));
    });
  }

  /** The owner's session cookie and CSRF header: a fresh session per route, so a fuzzed sign-out blinds no other route. */
  async function ownerHeaders(): Promise<Record<string, string>> {
    const visitor = await signedInVisitor(api.app, api.database.db, owner);
    const csrf = await visitor.csrfToken();
    return { cookie: [...visitor.cookies].map(([name, value]) => `${name}=${value}`).join("; "), "x-csrftoken": csrf };
  }

  async function send(signedIn: Record<string, string>, method: string, url: string, body?: unknown): Promise<void> {
    address += 1;
    const headers: Record<string, string> = { ...signedIn, "accept-language": address % 2 ? "en" : "zh-CN" };
    const payload = body === undefined ? undefined : toJsonPayload(body);
    if (payload !== undefined) headers["content-type"] = "application/json";
    requestCount += 1;
    let response: LightMyRequestResponse;
    try {
      response = await api.app.inject({
        method: method as "GET",
        url,
        headers,
        payload,
        // Another address per request, so per-address rate limits do not end the run early.
        remoteAddress: `10.${(address >> 16) & 255}.${(address >> 8) & 255}.${address & 255}`,
      });
    } catch (error) {
      failures.push(`${method} ${url} ${describeBody(payload)} → threw ${String(error)}`);
      return;
    }
    if (response.statusCode >= 500)
      failures.push(`${method} ${url} ${describeBody(payload)} → ${response.statusCode} ${response.body.slice(0, 200)}`);
    else if (response.statusCode >= 400 && method !== "HEAD" && !isLocalizedError(response)) {
      failures.push(
        `${method} ${url} ${describeBody(payload)} → ${response.statusCode} without { code, message }: ${response.body.slice(0, 200)}`,
      );
    }
  }

  it("answers no 5xx and only localized refusals", async () => {
    const routes = api.app.apiRoutes.filter((route) => !route.url.startsWith("/api/docs"));
    expect(routes.length).toBeGreaterThan(80);
    for (const route of routes) {
      const methods = (Array.isArray(route.method) ? route.method : [route.method]).filter((method) => method !== "HEAD");
      for (const method of methods) {
        const signedIn = await ownerHeaders();
        const takesBody = !["GET", "DELETE"].includes(method);
        const bodySchema = jsonSchemaOf(route.schema?.body);
        const baseBody = takesBody ? (sampleValue(bodySchema) ?? {}) : undefined;
        // Path parameters.
        for (const name of [...route.url.matchAll(/:([a-z_]+)|\*/gi)].map((match) => match[1] ?? "*")) {
          for (const value of hostilePathValues) await send(signedIn, method, pathWith(route.url, { name, value }), baseBody);
        }
        // Query parameters, one at a time.
        const query = jsonSchemaOf(route.schema?.querystring);
        for (const name of Object.keys(query?.properties ?? { q: {} })) {
          for (const value of hostileQueryValues) {
            await send(signedIn, method, `${pathWith(route.url)}?${name}=${value.replaceAll("{name}", name)}`, baseBody);
          }
        }
        if (!takesBody) continue;
        // Whole bodies, then each field of a plausible body in turn.
        for (const body of hostileBodies) await send(signedIn, method, pathWith(route.url), body);
        const fields = Object.keys(bodySchema?.properties ?? {});
        for (const field of fields) {
          for (const value of hostileJsonValues) {
            await send(signedIn, method, pathWith(route.url), { ...(baseBody as Record<string, unknown>), [field]: value });
          }
        }
      }
    }
    expect(requestCount).toBeGreaterThan(3_000);
    expect(failures.slice(0, 60), `${failures.length} failures`).toEqual([]);
  }, 900_000);

  it("refuses unstorable text in a body, a query and a path with a localized 400", async () => {
    const visitor = await signedInVisitor(api.app, api.database.db, owner);
    const cases = [
      () => visitor.post("/api/Users/login/", { username: "\ud800", password: "secret123" }, { "accept-language": "en" }),
      () => visitor.post("/api/circles/", { name: "ab\udfff" }, { "accept-language": "en" }),
      () => visitor.get(`/api/circles/${fixtures.id}/members/?q=%00`, { "accept-language": "en" }),
      () => visitor.get("/api/encyclopedia/entries/?q=%00", { "accept-language": "en" }),
      () => visitor.get("/api/Users/profile/1%00/", { "accept-language": "en" }),
      () => visitor.request("POST", "/api/Users/follow/1%00/", { headers: { "accept-language": "en" } }),
      () => visitor.request("DELETE", "/api/Users/follow/1%00/", { headers: { "accept-language": "en" } }),
      () =>
        visitor.request("PUT", "/api/drafts/fuzz/", {
          json: { version: 0, fields: { "\ud800": "x" } },
          headers: { "accept-language": "en" },
        }),
      () =>
        visitor.request("PUT", "/api/drafts/fuzz/", {
          json: { version: 0, fields: { a: ["\udc00"] } },
          headers: { "accept-language": "en" },
        }),
    ];
    for (const attempt of cases) {
      const response = await attempt();
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json()).toMatchObject({ code: "invalid_characters", message: expect.stringMatching(/cannot be stored/) });
    }
    const chinese = await visitor.get("/api/encyclopedia/entries/?q=a%00", { "accept-language": "zh-CN" });
    expect(chinese.json()).toMatchObject({ code: "invalid_characters", message: expect.stringMatching(/无法保存/) });
  });

  it("refuses a null body where an object is expected, with a localized 400", async () => {
    const visitor = await signedInVisitor(api.app, api.database.db, owner);
    for (const [method, url] of [
      ["POST", "/api/circles/"],
      ["PATCH", `/api/circles/${fixtures.id}/`],
    ] as const) {
      const response = await visitor.request(method, url, {
        body: "null",
        headers: { "content-type": "application/json", "accept-language": "en" },
      });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json()).toMatchObject({ code: "validation_failed", message: expect.stringMatching(/not valid/) });
    }
  });
});

function isLocalizedError(response: LightMyRequestResponse): boolean {
  if (!response.headers["content-type"]?.toString().startsWith("application/json")) return false;
  const body = response.json() as { code?: unknown; message?: unknown };
  return typeof body.code === "string" && typeof body.message === "string" && body.message.length > 0;
}

function describeBody(payload: string | undefined): string {
  if (payload === undefined) return "";
  return payload.length > 120 ? `${payload.slice(0, 120)}…(${payload.length})` : payload;
}
