import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PGlite } from "@electric-sql/pglite";
import { createTestApi, type TestApi } from "../../tests/support/api.ts";
import { createSignedInUser, createWriting } from "../../tests/support/factories.ts";

/**
 * Issue 19 ("Cache tags"): a signed-in reading page, once warm, makes at most one query. Its
 * content, the viewer's state, the counters, the live stream's position, the author's badge and
 * the writing's red packets all come from memories dropped by their tags. Counted on the embedded
 * store, where every statement goes through PGlite's `query` or `exec`.
 */
describe("the signed-in reading page's queries", () => {
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

  it("makes at most one query when warm, and follows a change at once", async () => {
    const { user, visitor } = await createSignedInUser(api.app, api.database.db);
    const writing = await createWriting(api.database.db, user, { title: "Warm page", content: "A formula $x^2$ and words.\n" });
    const path = `/circles/${writing.circleId}/writing/${writing.id}`;
    expect((await visitor.get(path)).statusCode).toBe(200);
    for (let run = 0; run < 3; run++) {
      statements.length = 0;
      counting = true;
      const response = await visitor.get(path);
      counting = false;
      expect(response.statusCode).toBe(200);
      expect(response.body).toContain("Warm page");
      expect(statements.length, statements.join("\n")).toBeLessThanOrEqual(1);
    }
    // A like (another reader's) changes the counts the page shows: the next render has them.
    const other = await createSignedInUser(api.app, api.database.db);
    const liked = await other.visitor.request("PUT", `/api/subjects/writing/${writing.id}/reaction/`, { json: { reaction: "like" } });
    expect(liked.statusCode, liked.body).toBeLessThan(300);
    expect((await visitor.get(path)).body).toMatch(/data-testid="like"[^>]*>(?:(?!<\/button>)[\s\S])*?class="action-count">1</);
  });
});
