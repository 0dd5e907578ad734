import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { createTestApi, type TestApi } from "../../tests/support/api.ts";
import { createFollow, createSignedInUser, createUser, createWriting } from "../../tests/support/factories.ts";
import { oneDatabaseKind } from "../../tests/support/database.ts";
import { users } from "../../server/db/schema/index.ts";
import { forgetSessionsOf } from "../accounts/session-cache.server.ts";

describe.each(oneDatabaseKind)("the monetization programme on %s", (kind) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi(kind, { pages: true });
  });
  afterAll(() => api.close());
  const db = () => api.database.db;

  it("shows each criterion's progress; an application short of them waits with its reason", async () => {
    const { visitor } = await createSignedInUser(api.app, db());
    const status = (await visitor.get("/api/monetization/")).json();
    expect(status).toMatchObject({ user_type: "Registered users", participant: false, application: null });
    expect(status.paths[0].criteria).toEqual([
      { key: "followers", required: 100, bound: "at_least", current: 0, met: false },
      { key: "original_pieces", required: 10, bound: "at_least", current: 0, met: false },
      { key: "account_age_days", required: 30, bound: "at_least", current: 0, met: false },
      { key: "upheld_reports_90_days", required: 0, bound: "at_most", current: 0, met: true },
    ]);
    const page = (await visitor.get("/monetization")).body;
    expect(page).toContain("粉丝数：至少 100");
    expect((await visitor.get("/en/monetization")).body).toContain("Followers: at least 100");
    const applied = await visitor.request("POST", "/api/monetization/application/", { json: {} });
    expect(applied.statusCode, applied.body).toBe(201);
    expect(applied.json()).toMatchObject({
      participant: false,
      application: { status: "pending", reason: "followers,original_pieces,account_age_days" },
    });
    expect((await visitor.request("POST", "/api/monetization/application/", { json: {} })).json()).toMatchObject({
      code: "already_applied",
    });
    expect((await visitor.get("/monetization")).body).toContain("你的申请正在等待管理员审核");
  });

  it("makes a creator who meets every criterion an Official user at once, and /monetization then leads home", async () => {
    const { user, visitor } = await createSignedInUser(api.app, db());
    await db()
      .update(users)
      .set({ createdAt: sql`now() - interval '40 days'` })
      .where(eq(users.id, user.id));
    for (let index = 0; index < 10; index += 1) await createWriting(db(), user, { title: `原创 ${index}` });
    for (let index = 0; index < 100; index += 1) await createFollow(db(), await createUser(db()), user);
    const applied = await visitor.request("POST", "/api/monetization/application/", { json: {} });
    expect(applied.json()).toMatchObject({ user_type: "Official users", participant: true, application: { status: "approved" } });
    forgetSessionsOf(user.id);
    const page = await visitor.get("/monetization");
    expect(page.statusCode).toBe(302);
    expect(page.headers.location).toBe("/monetization/home");
    const home = (await visitor.get("/monetization/home")).body;
    expect(home).toContain("累计收益");
    expect(home).toContain("付费阅读");
    expect((await visitor.get("/en/monetization/home")).body).toContain("Cashable now");
  });
});
