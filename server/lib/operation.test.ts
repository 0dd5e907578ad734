import { afterAll, beforeAll, describe, expect, it } from "vitest";
import Fastify, { type FastifyInstance } from "fastify";
import swagger from "@fastify/swagger";
import cookie from "@fastify/cookie";
import { jsonSchemaTransform, serializerCompiler } from "fastify-type-provider-zod";
import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { redirect } from "react-router";
import { createTestDatabase, databaseKinds, type TestDatabase } from "../../tests/support/database.ts";
import { AppError } from "../../common/app-error.ts";
import { idSchema } from "../../common/id.ts";
import { events } from "../db/schema/index.ts";
// eslint-disable-next-line no-restricted-imports -- the test composes the adapter with the one error handler, as server/app.ts does
import { errorHandling } from "../plugins/errors.ts";
import { edgeValidatorCompiler } from "./validator.ts";
import { visitorCookieName } from "./visitor.ts";
import {
  defineOperation,
  dispatchIntent,
  failureResponses,
  formAction,
  formInput,
  jsonRoute,
  noContent,
  runOperation,
  UndeclaredFailure,
  type FormContext,
  type FormPost,
  type OperationServices,
  type OperationSettings,
  type OperationViewer,
} from "./operation.ts";

const reader = { id: 7, username: "reader", nickname: "Reader", userType: "normal", avatar: null } as unknown as OperationViewer;

/** A note on a numbered thing, stored as an event row; `fail` makes the use case refuse or break. */
const noteOperation = defineOperation({
  name: "takeNote",
  input: {
    params: z.object({ id: idSchema }),
    body: z.object({
      text: z.string({ error: "validation:comment_required" }).trim().min(1, "validation:comment_required"),
      stars: z.number({ error: "validation:invalid_value" }).int().min(1, "validation:invalid_value").optional(),
      pinned: z.boolean().optional(),
      labels: z.array(z.string()).max(3, "validation:invalid_value").optional(),
      fail: z.enum(["refuse", "break"]).optional(),
    }),
  },
  viewer: "signed-in",
  run: async (services, viewer, { params, body }) => {
    if (body.fail === "refuse") throw new AppError("already_checked_in");
    if (body.fail === "break") throw new Error("the disk is on fire");
    const [row] = await services.db
      .insert(events)
      .values({ actorId: null, verb: "test.noted", subjectType: "test", subjectId: params.id, data: { by: viewer.id, ...body } })
      .returning();
    return row!;
  },
  present: (row, context) => ({ id: row.id, subject_id: row.subjectId, data: row.data as Record<string, unknown>, locale: context.locale }),
  response: z.object({ id: z.number(), subject_id: z.number(), data: z.record(z.string(), z.unknown()), locale: z.string() }),
  failures: ["already_checked_in"],
  unexpected: "comment_failed",
});

const removeOperation = defineOperation({
  name: "removeNotes",
  input: { params: z.object({ id: idSchema }) },
  viewer: "optional",
  run: async (services, _viewer, { params }) => {
    await services.db.delete(events).where(and(eq(events.verb, "test.noted"), eq(events.subjectId, params.id)));
  },
  present: () => null,
  response: noContent,
  failures: [],
});

/** Who a visit counts for, as the services tell it (views and shares count once per visitor). */
const visitOperation = defineOperation({
  name: "visit",
  input: {},
  viewer: "optional",
  run: async (services) => ({ visitor: services.visitor(), again: services.visitor(), origin: services.origin ?? null }),
  present: (result) => result,
  response: z.object({ visitor: z.string(), again: z.string(), origin: z.string().nullable() }),
  failures: [],
});

describe.each(databaseKinds)("operation adapters on %s", (kind) => {
  let database: TestDatabase;
  let app: FastifyInstance;
  let signedIn = true;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    app = Fastify();
    app.setValidatorCompiler(edgeValidatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    app.decorate("db", database.db);
    app.decorate("now", () => new Date("2026-11-26T00:00:00Z"));
    app.decorateRequest("locale", "en");
    app.decorateRequest("viewer", async () => (signedIn ? reader : null));
    await app.register(cookie);
    await app.register(errorHandling);
    await app.register(swagger, { openapi: { info: { title: "test", version: "0" } }, transform: jsonSchemaTransform });
    jsonRoute(app, "POST", "/api/things/:id/notes/", noteOperation, { status: 201, tags: ["things"], summary: "Take a note" });
    jsonRoute(app, "DELETE", "/api/things/:id/notes/", removeOperation, { status: 204, cache: "none" });
    jsonRoute(app, "POST", "/api/visits/", visitOperation, { cache: "no-store" });
    jsonRoute(
      app,
      "GET",
      "/api/badge.svg",
      { ...visitOperation, name: "badge", present: (result) => `<svg>${result.origin}</svg>`, response: z.string() },
      {
        contentType: "image/svg+xml; charset=utf-8",
        publicMaxAge: 3600,
      },
    );
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await database.dispose();
  });

  const post = (url: string, payload: unknown) => app.inject({ method: "POST", url, payload: payload as Record<string, unknown> });

  describe("jsonRoute", () => {
    it("validates with the operation's schemas, runs it for the viewer and answers the presenter's answer with the status", async () => {
      signedIn = true;
      const created = await post("/api/things/12/notes/", { text: " hello ", stars: 3, labels: ["a"] });
      expect(created.statusCode).toBe(201);
      expect(created.headers["cache-control"]).toBe("private, no-store");
      const body = created.json();
      expect(body).toMatchObject({ subject_id: 12, data: { by: 7, text: "hello", stars: 3, labels: ["a"] }, locale: "en" });
      const [stored] = await database.db.select().from(events).where(eq(events.id, body.id));
      expect(stored!.subjectId).toBe(12);

      const invalid = await post("/api/things/12/notes/", { text: "  ", stars: 0 });
      expect(invalid.statusCode).toBe(400);
      expect(invalid.json()).toMatchObject({
        code: "validation_failed",
        fields: { text: "Please enter your comment.", stars: expect.any(String) },
      });
      expect((await post("/api/things/0/notes/", { text: "x" })).statusCode).toBe(400);

      const removed = await app.inject({ method: "DELETE", url: "/api/things/12/notes/" });
      expect(removed.statusCode).toBe(204);
      expect(removed.body).toBe("");
      expect(await database.db.select().from(events).where(eq(events.verb, "test.noted"))).toEqual([]);
    });

    it("asks visitors to sign in, passes refusals through and answers faults with the operation's own code", async () => {
      signedIn = false;
      const visitor = await post("/api/things/1/notes/", { text: "x" });
      expect(visitor.statusCode).toBe(401);
      expect(visitor.json().code).toBe("not_authenticated");
      signedIn = true;
      const refused = await post("/api/things/1/notes/", { text: "x", fail: "refuse" });
      expect([refused.statusCode, refused.json().code]).toEqual([409, "already_checked_in"]);
      const broken = await post("/api/things/1/notes/", { text: "x", fail: "break" });
      expect(broken.statusCode).toBe(500);
      expect(broken.json().code).toBe("comment_failed");
      expect(broken.body).not.toContain("fire");
    });

    it("gives the use case a visitor: the user, or the visitor cookie, issued once with the answer when missing", async () => {
      signedIn = false;
      const first = await post("/api/visits/", {});
      expect(first.statusCode).toBe(200);
      expect(first.headers["cache-control"]).toBe("no-store");
      const issued = first.cookies.find((cookie) => cookie.name === visitorCookieName);
      expect(issued).toMatchObject({ httpOnly: true, path: "/", sameSite: "Lax" });
      const answer = first.json();
      expect(answer.visitor).toMatch(/^v:[A-Za-z0-9_-]{32}$/);
      expect(answer.again).toBe(answer.visitor);
      expect(answer.visitor).not.toContain(issued!.value);
      const second = await app.inject({
        method: "POST",
        url: "/api/visits/",
        payload: {},
        cookies: { [visitorCookieName]: issued!.value },
      });
      expect(second.json().visitor).toBe(answer.visitor);
      expect(second.headers["set-cookie"]).toBeUndefined();
      const other = await post("/api/visits/", {});
      expect(other.json().visitor).not.toBe(answer.visitor);
      signedIn = true;
      const user = await app.inject({ method: "POST", url: "/api/visits/", payload: {}, cookies: { [visitorCookieName]: issued!.value } });
      expect(user.json()).toMatchObject({ visitor: "u:7", origin: "http://localhost:80" });
      expect(user.headers["set-cookie"]).toBeUndefined();
    });

    it("sends a non-JSON answer as it is, with its media type and public caching", async () => {
      const badge = await app.inject({ method: "GET", url: "/api/badge.svg" });
      expect(badge.statusCode).toBe(200);
      expect(badge.headers["content-type"]).toBe("image/svg+xml; charset=utf-8");
      expect(badge.headers["cache-control"]).toBe("public, max-age=3600");
      expect(badge.body).toBe("<svg>http://localhost:80</svg>");
    });

    it("puts every operation's input and 2xx answer schema into the OpenAPI document", async () => {
      const document = app.swagger() as unknown as { paths: Record<string, Record<string, Record<string, unknown>>> };
      const created = document.paths["/api/things/{id}/notes/"]!.post as {
        operationId: string;
        requestBody: unknown;
        responses: Record<string, { content?: Record<string, { schema: { properties?: Record<string, unknown> } }> }>;
      };
      expect(created.operationId).toBe("takeNote");
      expect(created.requestBody).toBeDefined();
      expect(Object.keys(created.responses["201"]!.content!["application/json"]!.schema.properties!)).toEqual([
        "id",
        "subject_id",
        "data",
        "locale",
      ]);
      expect(document.paths["/api/things/{id}/notes/"]!.delete!.responses).toHaveProperty("204");
    });
  });

  describe("formAction and dispatchIntent", () => {
    const context = (viewer: OperationViewer | null = reader): FormContext => ({
      db: database.db,
      now: () => new Date("2026-11-26T00:00:00Z"),
      viewer,
      locale: "zh-CN",
      cookies: {},
      secure: false,
      settings: {} as OperationSettings,
    });
    const formOf = (fields: [string, string][]) => {
      const form = new FormData();
      for (const [name, value] of fields) form.append(name, value);
      return form;
    };
    const page = (fields: [string, string][], params: Record<string, string> = { thingId: "5" }, viewer?: OperationViewer | null) =>
      ({
        app: context(viewer === undefined ? reader : viewer),
        request: new Request("http://localhost/things/5?from=page", { method: "POST" }),
        form: formOf(fields),
        params,
      }) satisfies FormPost;
    const noteForm = formAction(noteOperation, {
      params: (post) => ({ id: post.params.thingId }),
      done: (answer) => ({ saved: answer.subject_id, data: answer.data }),
      failed: (failure) => ({ failure }),
    });

    it("reads the form by the body schema, takes the subject from the URL and answers what the page makes of the result", async () => {
      const answer = await dispatchIntent(
        page([
          ["intent", "note"],
          ["id", "99"],
          ["text", "来自表单"],
          ["stars", "2"],
          ["pinned", "on"],
          ["labels", "x"],
          ["labels", "y"],
        ]),
        { note: noteForm },
      );
      expect(answer).toEqual({ saved: 5, data: { by: 7, text: "来自表单", stars: 2, pinned: true, labels: ["x", "y"] } });
    });

    it("gives a form's use case the visitor and carries a newly issued visitor cookie on the page's answer", async () => {
      const visit = formAction(visitOperation, { done: (answer) => redirect(`/done?visitor=${encodeURIComponent(answer.visitor)}`) });
      const anonymous = (await visit(page([], {}, null))) as Response;
      expect(anonymous.status).toBe(302);
      expect(anonymous.headers.get("set-cookie")).toMatch(
        new RegExp(`^${visitorCookieName}=[A-Za-z0-9_-]+; Max-Age=31536000; Path=/; HttpOnly; SameSite=Lax$`),
      );
      expect(anonymous.headers.get("location")).toMatch(/^\/done\?visitor=v%3A/);
      const known = { ...page([], {}, null), app: { ...context(null), cookies: { [visitorCookieName]: "abcdefghijklmnop" } } };
      const again = (await visit(known)) as Response;
      expect(again.headers.get("set-cookie")).toBeNull();
      const user = (await visit(page([]))) as Response;
      expect(user.headers.get("location")).toBe("/done?visitor=u%3A7");
      expect(user.headers.get("set-cookie")).toBeNull();
      const kept = formAction(visitOperation, {
        done: (answer) => {
          throw redirect(`/thrown?visitor=${encodeURIComponent(answer.visitor)}`);
        },
      });
      const thrown = (await kept(page([], {}, null)).catch((error: unknown) => error)) as Response;
      expect(thrown.headers.get("set-cookie")).toContain(`${visitorCookieName}=`);
    });

    it("answers field errors in the page's language, refusals on the form, and 401/404 and unknown intents on the error screen", async () => {
      const invalid = (await noteForm(
        page([
          ["text", " "],
          ["stars", "many"],
        ]),
      )) as { failure: { fieldErrors: Record<string, string>; status: number } };
      expect(invalid.failure.status).toBe(400);
      expect(invalid.failure.fieldErrors.text).toBe("请输入评论内容。");
      expect(Object.keys(invalid.failure.fieldErrors)).toEqual(["text", "stars"]);

      const refused = (await noteForm(
        page([
          ["text", "x"],
          ["fail", "refuse"],
        ]),
      )) as { failure: { formError: string; code: string; status: number } };
      expect(refused.failure).toMatchObject({ code: "already_checked_in", status: 409 });
      expect(refused.failure.formError).toMatch(/签到/);

      await expect(noteForm(page([["text", "x"]], { thingId: "5" }, null))).rejects.toMatchObject({ code: "not_authenticated" });
      await expect(noteForm(page([["text", "x"]], { thingId: "abc" }))).rejects.toMatchObject({ code: "bad_request" });
      await expect(dispatchIntent(page([["intent", "constructor"]]), { note: noteForm })).rejects.toMatchObject({ code: "bad_request" });
      await expect(dispatchIntent(page([]), { note: noteForm })).rejects.toMatchObject({ code: "bad_request" });
    });
  });
});

describe("declared failures", () => {
  const services: OperationServices = {
    db: null as never,
    now: () => new Date(),
    locale: "en",
    visitor: () => "v",
    client: { address: "", userAgent: "", secure: false },
    cookie: () => undefined,
    answer: { setCookie: () => {}, status: () => {} },
    settings: {} as OperationSettings,
  };
  const refusing = (code: "already_checked_in" | "forbidden" | "validation_failed") =>
    defineOperation({
      name: "refuse",
      input: {},
      viewer: "optional",
      run: async () => {
        throw new AppError(code);
      },
      present: () => null,
      response: noContent,
      failures: ["already_checked_in"],
    });
  const run = (operation: ReturnType<typeof refusing>) => runOperation(operation, services, null, {} as never, () => undefined);

  it("lets a declared or generic failure through as it is", async () => {
    await expect(run(refusing("already_checked_in"))).rejects.toMatchObject({ code: "already_checked_in" });
    await expect(run(refusing("validation_failed"))).rejects.toMatchObject({ code: "validation_failed" });
  });

  it("fails a test loudly when an operation answers a code it does not declare", async () => {
    await expect(run(refusing("forbidden"))).rejects.toBeInstanceOf(UndeclaredFailure);
  });

  it("publishes each declared code in OpenAPI under its status", () => {
    const responses = failureResponses(noteOperation);
    expect(Object.keys(responses).sort()).toEqual(["400", "401", "403", "409", "429", "500"]);
    expect(responses[409]!.description).toBe("`already_checked_in`");
    expect(responses[500]!.description).toBe("`comment_failed`");
  });
});

describe("formInput", () => {
  it("reads numbers, checkboxes, lists and optional bodies by the schema, leaving other fields out", () => {
    const form = new FormData();
    form.append("title", "标题");
    form.append("circle", "12");
    form.append("score", "");
    form.append("categories", "3");
    form.append("categories", "4");
    form.append("csrftoken", "secret");
    const schema = z.object({
      title: z.string(),
      circle: z.number(),
      score: z.number().optional(),
      draft: z.boolean(),
      categories: z.array(z.number()),
      note: z.string().optional(),
    });
    expect(formInput(schema, form)).toEqual({ title: "标题", circle: 12, draft: false, categories: [3, 4] });
    expect(formInput(z.strictObject({}).nullish(), form)).toEqual({});
  });
});
