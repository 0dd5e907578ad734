import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApi, type TestApi } from "../../tests/support/api.ts";
import { statementCounter } from "../../tests/support/statements.ts";
import { createSignedInUser, createWriting } from "../../tests/support/factories.ts";

/**
 * Issue 19 ("Cache tags"): a signed-in reading page, once warm, makes at most one query. Its
 * content, the viewer's state, the counters, the live stream's position, the author's badge and
 * the writing's red packets all come from memories dropped by their tags. Counted on the embedded
 * store, where every statement goes through PGlite's `query` or `exec`.
 */
describe("the signed-in reading page's queries", () => {
  const counter = statementCounter();
  let api: TestApi;
  beforeAll(async () => {
    counter.install();
    api = await createTestApi("pglite", { pages: true });
  });
  afterAll(async () => {
    counter.restore();
    await api.close();
  });

  it("makes at most one query when warm, and follows a change at once", async () => {
    const { user, visitor } = await createSignedInUser(api.app, api.database.db);
    const writing = await createWriting(api.database.db, user, { title: "Warm page", content: "A formula $x^2$ and words.\n" });
    const path = `/circles/${writing.circleId}/writing/${writing.id}`;
    expect((await visitor.get(path)).statusCode).toBe(200);
    for (let run = 0; run < 3; run++) {
      const { result: response, statements } = await counter.count(() => visitor.get(path));
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
