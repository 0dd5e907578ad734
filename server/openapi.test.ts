import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApi, type TestApi } from "../tests/support/api.ts";

interface OpenApiOperation {
  responses?: Record<string, { content?: Record<string, { schema?: unknown }> } | undefined>;
}

/** The OpenAPI document at /api/docs describes every answer: each operation declares its 2xx response schema. */
describe("the OpenAPI document", () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi("pglite");
    await api.app.ready();
  });
  afterAll(() => api.close());

  it("gives every API operation a success response with its schema (204: no content)", async () => {
    const document = api.app.swagger() as unknown as { paths: Record<string, Record<string, OpenApiOperation>> };
    const operations = Object.entries(document.paths)
      .filter(([path]) => path.startsWith("/api/"))
      .flatMap(([path, methods]) =>
        Object.entries(methods).map(([method, operation]) => ({ name: `${method.toUpperCase()} ${path}`, operation })),
      );
    expect(operations.length).toBeGreaterThan(40);
    const undeclared = operations
      .filter(({ operation }) => {
        const success = Object.entries(operation.responses ?? {}).filter(([status]) => /^2\d\d$/.test(status));
        return !success.some(([status, response]) => status === "204" || response?.content?.["application/json"]?.schema !== undefined);
      })
      .map(({ name }) => name);
    expect(undeclared).toEqual([]);
  });
});
