import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApi, type TestApi } from "../../tests/support/api.ts";
import { statementCounter } from "../../tests/support/statements.ts";
import { createQuestion, createSignedInUser } from "../../tests/support/factories.ts";

/**
 * Issue 39 ("Speed"): a signed-in question page, once warm, makes at most one query, as the
 * reading page (`features/writings/reading-queries.pages.test.ts`): the question, its answers and
 * panels are remembered (features/questions/reading.ts) and the viewer's follow and answer too
 * (features/questions/viewer-state.ts). Counted on the embedded store, where every statement goes
 * through PGlite's `query` or `exec`: statements, not time.
 */
describe("the signed-in question page's queries", () => {
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
    const db = api.database.db;
    const { user, visitor } = await createSignedInUser(api.app, db);
    const answerers = [];
    for (let index = 0; index < 3; index++) answerers.push((await createSignedInUser(api.app, db)).user);
    const question = await createQuestion(db, user, { title: "Warm question page?", answerers });
    const path = `/circles/${question.circleId}/questions/${question.id}`;
    expect((await visitor.get(path)).statusCode).toBe(200);
    for (let run = 0; run < 3; run++) {
      const { result: response, statements } = await counter.count(() => visitor.get(path));
      expect(response.statusCode).toBe(200);
      expect(response.body).toContain("Warm question page?");
      expect(statements.length, statements.join("\n")).toBeLessThanOrEqual(1);
    }
    // Another reader's answer changes what the page shows: the next render has it, then remembered again.
    const other = await createSignedInUser(api.app, db);
    const answered = await other.visitor.post(`/api/questions/${question.id}/answers/`, { content: "A fresh answer\n" });
    expect(answered.statusCode, answered.body).toBe(201);
    expect((await visitor.get(path)).body).toContain("A fresh answer");
    const { result: fresh, statements } = await counter.count(() => visitor.get(path));
    expect(fresh.body).toContain("A fresh answer");
    expect(statements.length, statements.join("\n")).toBeLessThanOrEqual(1);
  });
});
