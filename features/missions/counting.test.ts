import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApi, Visitor, type TestApi } from "../../tests/support/api.ts";
import { createSignedInUser, createUser, createWriting, signedInVisitor } from "../../tests/support/factories.ts";
import { grant } from "../../tests/support/money.ts";
import { databaseKinds } from "../../tests/support/database.ts";
import { knownLoginIps, missions } from "../../server/db/schema/index.ts";
import { incomeHolds } from "../settlement/service.ts";

const botAgent = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";

/** Creator missions count only what the counting rules accept: valid reads (no bots, no repeats, no read without its view) and unlocks by genuine readers. */
describe.each(databaseKinds)("mission progress from counted outcomes on %s", (kind) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi(kind);
  });
  afterAll(() => api.close());
  const db = () => api.database.db;

  it("counts distinct readers' reads of a new writing, not a reader's repeats, bots or reads without a view", async () => {
    const [mission] = await db()
      .insert(missions)
      .values({
        key: `test_reads_${kind}`,
        scope: "creator",
        metric: "new_writing_reads",
        target: 3,
        rewardCurrency: "sinecoin",
        rewardAmount: 2,
        titleZh: "新作品三次有效阅读",
        titleEn: "Three valid reads of a new writing",
        position: 99,
      })
      .returning();
    const creator = await createSignedInUser(api.app, db(), { userType: "VIP users" });
    const writing = await createWriting(db(), creator.user);
    const progress = async () =>
      ((await creator.visitor.get("/api/missions/?scope=creator")).json() as { id: number; progress: number; status: string }[]).find(
        (item) => item.id === mission!.id,
      )!;
    const view = (visitor: Visitor) => visitor.get(`/api/views/writing/${writing.id}/view.gif`);
    const read = (visitor: Visitor) => visitor.get(`/api/views/writing/${writing.id}/read.gif`);

    // One reader over and over, a crawler, and a read beacon with no view before it: one valid read.
    const reader = new Visitor(api.app);
    for (let index = 0; index < 3; index += 1) {
      await view(reader);
      await read(reader);
    }
    const bot = new Visitor(api.app, { "user-agent": botAgent });
    await view(bot);
    await read(bot);
    await read(new Visitor(api.app));
    // A signed-in reader who only opens the page has viewed it, not read it.
    const skimmer = await createSignedInUser(api.app, db());
    await view(skimmer.visitor);
    expect(await progress()).toMatchObject({ progress: 1, status: "open" });
    expect((await creator.visitor.request("POST", `/api/missions/${mission!.id}/claim/`, { json: {} })).json()).toMatchObject({
      code: "not_completed",
    });

    // Two more readers who reach the end: the mission is complete and pays once, as pending profit.
    await read(skimmer.visitor);
    const other = new Visitor(api.app);
    await view(other);
    await read(other);
    expect(await progress()).toMatchObject({ progress: 3, status: "completed" });
    expect((await creator.visitor.request("POST", `/api/missions/${mission!.id}/claim/`, { json: {} })).json()).toEqual({
      reward: { currency: "sinecoin", amount: 2 },
    });
    expect(await incomeHolds(db(), creator.user.id)).toMatchObject({ pending: 2 });
  });

  it("counts unlocks of a pay-to-view piece only from genuine readers: alt accounts unlocking it make no progress", async () => {
    const day = 86_400_000;
    const creator = await createSignedInUser(api.app, db(), { userType: "VIP users" });
    await db().insert(knownLoginIps).values({ userId: creator.user.id, ip: "198.51.100.9" });
    const published = await creator.visitor.post("/api/circles/1/writings/", {
      title: "付费题解",
      content: "免费的开头。\n\n<!-- paywall -->\n\n付费的部分。\n",
      pay_to_view: { price: 3 },
    });
    expect(published.statusCode, published.body).toBe(201);
    const { id } = published.json() as { id: number };
    let keys = 0;
    const unlock = async (userId: number, visitor: Visitor) => {
      await grant(db(), userId, "sinecoin", 3);
      const answer = await visitor.request("POST", `/api/writings/${id}/unlock/`, {
        json: {},
        headers: { "idempotency-key": `mission-unlock-${kind}-${(keys += 1)}` },
      });
      expect(answer.statusCode, answer.body).toBeLessThan(300);
    };
    const unlocks = async () =>
      ((await creator.visitor.get("/api/missions/?scope=creator")).json() as { key: string; progress: number; status: string }[]).find(
        (item) => item.key === "creator_unlocks",
      )!;

    // A farm: fresh accounts, and old ones that signed in from the creator's own address.
    for (let index = 0; index < 3; index += 1) {
      const fresh = await createSignedInUser(api.app, db());
      await unlock(fresh.user.id, fresh.visitor);
    }
    for (let index = 0; index < 3; index += 1) {
      const alt = await createUser(db(), { createdAt: new Date(Date.now() - 60 * day) });
      await db().insert(knownLoginIps).values({ userId: alt.id, ip: "198.51.100.9" });
      await unlock(alt.id, await signedInVisitor(api.app, db(), alt));
    }
    expect(await unlocks()).toMatchObject({ progress: 0, status: "open" });

    // Five established readers from their own addresses complete it.
    for (let index = 0; index < 5; index += 1) {
      const reader = await createUser(db(), { createdAt: new Date(Date.now() - 30 * day) });
      await db()
        .insert(knownLoginIps)
        .values({ userId: reader.id, ip: `203.0.113.${50 + index}` });
      await unlock(reader.id, await signedInVisitor(api.app, db(), reader));
    }
    expect(await unlocks()).toMatchObject({ progress: 5, status: "completed" });
  });
});
