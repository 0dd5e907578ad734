import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApi, Visitor, type TestApi } from "../../tests/support/api.ts";
import { createCircle, createSignedInUser } from "../../tests/support/factories.ts";
import { databaseKinds } from "../../tests/support/database.ts";
import { grant } from "../../tests/support/money.ts";

/** `/api/trade/missions/` (the query `/trade` uses) filters open tasks by circle, minimum reward and deadline, and sort them. */
describe.each(databaseKinds)("task market filters on %s", (kind) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi(kind);
  });
  afterAll(() => api.close());
  const db = () => api.database.db;
  const hour = 3_600_000;

  it("keeps only tasks ending within the chosen days, above a reward, in a circle; sorts by deadline", async () => {
    const circle = await createCircle(db());
    const poster = await createSignedInUser(api.app, db());
    await grant(db(), poster.user.id, "sinecoin", 100);
    const post = async (reward: number, hoursAhead: number) => {
      const answer = await poster.visitor.request("POST", "/api/trade/missions/", {
        json: {
          circle_id: circle.id,
          title: `Task ending in ${hoursAhead} h`,
          description: "Some work.",
          reward,
          slots: 1,
          deadline: new Date(Date.now() + hoursAhead * hour).toISOString(),
        },
        headers: { "idempotency-key": `filters-${kind}-${reward}-${hoursAhead}` },
      });
      expect(answer.statusCode, answer.body).toBe(201);
      return (answer.json() as { id: number }).id;
    };
    const soon = await post(5, 12);
    const thisWeek = await post(20, 60);
    const later = await post(10, 240);
    const ids = async (query: string) =>
      (
        (await new Visitor(api.app).get(`/api/trade/missions/?circle_id=${circle.id}&${query}`)).json() as { results: { id: number }[] }
      ).results.map((task) => task.id);
    expect(await ids("ends_within=1")).toEqual([soon]);
    expect(await ids("ends_within=3")).toEqual([thisWeek, soon]);
    expect(await ids("ends_within=3&min_reward=10")).toEqual([thisWeek]);
    expect(await ids("sort=deadline")).toEqual([soon, thisWeek, later]);
    expect(await ids("sort=reward")).toEqual([thisWeek, later, soon]);
    const bad = await new Visitor(api.app).get("/api/trade/missions/?ends_within=0");
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: "validation_failed" });
  });
});
