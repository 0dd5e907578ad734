import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PGlite } from "@electric-sql/pglite";
import { createTestApi, type TestApi } from "../../tests/support/api.ts";
import { createQuestion, createSignedInUser } from "../../tests/support/factories.ts";

/**
 * Issue 39 ("Speed"): the signed-in question page's statements when warm, counted on the embedded
 * store as `features/writings/reading-queries.pages.test.ts` counts the article's. The goal is the
 * article's (one at most, with the question remembered like `readingData`); for now it reads
 * nothing twice (its comments reuse the question it loaded): nine statements, ten before.
 */
describe("the signed-in question page's queries", () => {
  const statements: string[] = [];
  let counting = false;
  const proto = PGlite.prototype as unknown as Record<"query" | "exec", (...args: unknown[]) => unknown>;
  const originals = { query: proto.query, exec: proto.exec };
  let api: TestApi;
  beforeAll(async () => {
    // Before the database opens: its statement wrapper binds `query` when it is made.
    for (const name of ["query", "exec"] as const) {
      const original = originals[name];
      proto[name] = function (this: unknown, ...args: unknown[]) {
        if (counting) statements.push(String(args[0]).replace(/\s+/g, " ").slice(0, 160));
        return original.apply(this, args);
      };
    }
    api = await createTestApi("pglite", { pages: true });
  });
  afterAll(async () => {
    proto.query = originals.query;
    proto.exec = originals.exec;
    await api.close();
  });

  it("reads nothing twice when warm", async () => {
    const db = api.database.db;
    const { user, visitor } = await createSignedInUser(api.app, db);
    const answerers = [];
    for (let index = 0; index < 3; index++) answerers.push((await createSignedInUser(api.app, db)).user);
    const question = await createQuestion(db, user, { title: "Warm question page?", answerers });
    const path = `/circles/${question.circleId}/questions/${question.id}`;
    expect((await visitor.get(path)).statusCode).toBe(200);
    for (let run = 0; run < 2; run++) {
      statements.length = 0;
      counting = true;
      const response = await visitor.get(path);
      counting = false;
      expect(response.statusCode).toBe(200);
      expect(response.body).toContain("Warm question page?");
      const executed = statements.filter((statement) => !statement.startsWith("prepare "));
      expect(new Set(executed).size, executed.join("\n")).toBe(executed.length);
    }
  });
});
