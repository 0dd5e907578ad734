import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApi, type TestApi } from "../tests/support/api.ts";

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
    expect(Object.keys(document.paths)).toEqual(expect.arrayContaining(["/api/Users/register/", "/api/Users/login/", "/api/Users/LoginAuth/", "/api/Users/get_unread", "/api/Users/read_meg/{category}/"]));
    const register = document.paths["/api/Users/register/"].post.requestBody.content["application/json"].schema;
    expect(register.required).toEqual(expect.arrayContaining(["username", "email", "password", "confirm_password", "gender", "birthday", "country"]));
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
    expect(root.children.map((child: { name: string }) => child.name)).toEqual(["Mathematics", "Literature", "Programming", "Artificial Intelligence", "Cybersecurity", "Statistics & Probability"]);
    const literature = root.children[1];
    expect(literature.children.map((child: { name: string }) => child.name)).toEqual(["Poetry", "Fiction", "Prose", "Drama"]);
    const missing = await api.app.inject({ method: "GET", url: "/api/circles/99999/" });
    expect(missing.statusCode).toBe(404);
    const invalid = await api.app.inject({ method: "GET", url: "/api/circles/abc/" });
    expect(invalid.statusCode).toBe(400);
  });
});
