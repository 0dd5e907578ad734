import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApi, type TestApi } from "../../tests/support/api.ts";
import { createSignedInUser, createWriting } from "../../tests/support/factories.ts";
import { databaseKinds } from "../../tests/support/database.ts";
import { grant } from "../../tests/support/money.ts";

describe.each(databaseKinds)("the programme's earnings at a glance on %s", (kind) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi(kind);
  });
  afterAll(() => api.close());

  it("answers the viewer's own figures: a tip is pending, counted this month under tips; visitors are refused", async () => {
    const author = await createSignedInUser(api.app, api.database.db);
    const writing = await createWriting(api.database.db, author.user, { title: "收益一览", tipEnabled: true });
    const reader = await createSignedInUser(api.app, api.database.db);
    await grant(api.database.db, reader.user.id, "sinecoin", 30);
    const tipped = await reader.visitor.request("POST", `/api/subjects/writing/${writing.id}/tips/`, {
      json: { amount: 30 },
      headers: { "idempotency-key": `home-tip-${kind}` },
    });
    expect(tipped.statusCode, tipped.body).toBe(201);
    const home = await author.visitor.get("/api/monetization/home/");
    expect(home.statusCode, home.body).toBe(200);
    const answer = home.json();
    expect(answer).toMatchObject({
      wallet: { sinecoin_total_profit: 30, cashoutable_sinecoin_profit: 0 },
      pending: 30,
      debt: 0,
      settlement_days: 7,
      month_total: 30,
    });
    expect(answer.month).toMatch(/^\d{4}-\d{2}$/);
    expect(answer.by_source).toContainEqual({ source: "tips", amount: 30 });
    // The reader sees their own figures, not the author's.
    expect((await reader.visitor.get("/api/monetization/home/")).json()).toMatchObject({ pending: 0, month_total: 0 });
    expect((await api.app.inject({ method: "GET", url: "/api/monetization/home/" })).statusCode).toBe(401);
  });
});
