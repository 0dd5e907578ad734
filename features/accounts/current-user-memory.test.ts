import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApi, type TestApi } from "../../tests/support/api.ts";
import { createUser, signedInVisitor } from "../../tests/support/factories.ts";
import { databaseKinds } from "../../tests/support/database.ts";

/**
 * `GET /api/Users/LoginAuth/` answers from the users row remembered with the session lookup; every
 * write to that row must be seen by the next call at once, not after the memory lapses.
 */
describe.each(databaseKinds)("the remembered current user on %s", (kind) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi(kind);
  });
  afterAll(() => api.close());

  it("shows a profile change and a check-in's gold on the very next auth call", async () => {
    const user = await createUser(api.database.db);
    const visitor = await signedInVisitor(api.app, api.database.db, user, { "accept-language": "en" });
    const auth = async () =>
      (await visitor.get("/api/Users/LoginAuth/")).json() as { self_description: string; school: string; gold: number };
    expect((await auth()).gold).toBe(0);
    expect((await auth()).school).toBe("");

    const changed = await visitor.request("PATCH", "/api/Users/profile/", {
      json: { self_description: "Likes proofs", school: "Tsinghua" },
    });
    expect(changed.statusCode).toBe(200);
    expect(await auth()).toMatchObject({ self_description: "Likes proofs", school: "Tsinghua" });

    expect((await visitor.post("/api/Users/checkin/")).statusCode).toBe(200);
    expect((await auth()).gold).toBeGreaterThan(0);
  });
});
