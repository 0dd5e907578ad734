import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { createTestApi, Visitor, type TestApi } from "../../tests/support/api.ts";
import { createCircle, createUser, createWriting, signedInVisitor } from "../../tests/support/factories.ts";
import { databaseKinds } from "../../tests/support/database.ts";
import { grant } from "../../tests/support/money.ts";
import { checkins, shopOwnedItems } from "../../server/db/schema/index.ts";
import { checkLedger, ledgerIsConsistent } from "../ledger/check.ts";
import { ledgerBalance } from "../ledger/service.ts";

describe.each(databaseKinds)("the shop on %s", (kind) => {
  let api: TestApi;
  /** The injected clock: tests move it, nobody sleeps. */
  let now = new Date("2026-12-10T04:00:00Z");
  beforeAll(async () => {
    api = await createTestApi(kind, { now: () => now });
  });
  afterAll(() => api.close());
  const db = () => api.database.db;
  let keys = 0;
  const newKey = () => `shop-key-${(keys += 1)}-${Date.now()}`;
  const buy = (visitor: Visitor, body: unknown, key = newKey()) =>
    visitor.request("POST", "/api/shop/purchases/", { json: body, headers: { "idempotency-key": key } });
  const wallet = async (visitor: Visitor) => (await visitor.get("/api/wallet/")).json() as Record<string, number>;
  const buyer = async (language = "en") => {
    const user = await createUser(db());
    return { user, visitor: await signedInVisitor(api.app, db(), user, { "accept-language": language }) };
  };

  it("lists the items with both prices, to visitors too", async () => {
    const answer = await new Visitor(api.app).get("/api/shop/items/");
    expect(answer.statusCode).toBe(200);
    const items = (answer.json() as { results: { item: string; slot: string; price: { gold: number; sinecoin: number } }[] }).results;
    expect(items.map((item) => item.slot)).toEqual(expect.arrayContaining(["makeup_card", "badge", "frame", "highlight"]));
    expect(items.find((item) => item.item === "makeup_card")).toMatchObject({ price: { gold: 100, sinecoin: 2 } });
  });

  it("sells with gold and with sinecoin in one balanced transaction each, shown in the wallet linking to the shop", async () => {
    const { user, visitor } = await buyer();
    await grant(db(), user.id, "gold", 250);
    await grant(db(), user.id, "sinecoin", 5);
    const withGold = await buy(visitor, { item: "makeup_card", currency: "gold" });
    expect(withGold.statusCode, withGold.body).toBe(201);
    expect(withGold.json()).toMatchObject({ item: "makeup_card", currency: "gold", price: 100, balance: 150, expires_at: null });
    const withCoins = await buy(visitor, { item: "makeup_card", currency: "sinecoin" });
    expect(withCoins.statusCode).toBe(201);
    expect(withCoins.json()).toMatchObject({ currency: "sinecoin", price: 2, balance: 3 });
    expect(await wallet(visitor)).toMatchObject({ gold: 150, sinecoin: 3 });
    expect(await ledgerBalance(db(), { system: "shop", currency: "gold" })).toBeGreaterThanOrEqual(100);
    const lines = (await visitor.get("/api/wallet/transactions/?kind=shop_purchase")).json() as {
      results: { amount: number; currency: string; title: string; url: string }[];
    };
    expect(lines.results).toEqual([
      expect.objectContaining({ amount: -2, currency: "sinecoin", title: "makeup_card", url: "/shop" }),
      expect.objectContaining({ amount: -100, currency: "gold", title: "makeup_card", url: "/shop" }),
    ]);
    const owned = (await visitor.get("/api/shop/owned/")).json() as { results: { item: string; used: boolean }[] };
    expect(owned.results).toHaveLength(2);
    expect(owned.results.every((item) => item.item === "makeup_card" && !item.used)).toBe(true);
    expect(ledgerIsConsistent(await checkLedger(db()))).toBe(true);
  });

  it("refuses what the balance does not cover with the localized message, and sells nothing", async () => {
    const { user, visitor } = await buyer();
    await grant(db(), user.id, "gold", 99);
    const refused = await buy(visitor, { item: "makeup_card", currency: "gold" });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ code: "insufficient_balance", message: "Your balance is not enough for this." });
    const zh = await buyer("zh-CN");
    expect((await buy(zh.visitor, { item: "badge_star", currency: "sinecoin" })).json()).toMatchObject({ message: "余额不足。" });
    expect(await db().$count(shopOwnedItems, eq(shopOwnedItems.userId, user.id))).toBe(0);
    expect(await wallet(visitor)).toMatchObject({ gold: 99 });
  });

  it("answers a retry with the first answer and moves nothing twice; the same key with another body is 422", async () => {
    const { user, visitor } = await buyer();
    await grant(db(), user.id, "gold", 1000);
    const first = await buy(visitor, { item: "badge_quill", currency: "gold" }, "shop-retry-0001");
    expect(first.statusCode).toBe(201);
    const again = await buy(visitor, { item: "badge_quill", currency: "gold" }, "shop-retry-0001");
    expect(again.statusCode).toBe(201);
    expect(again.json()).toEqual(first.json());
    expect(await wallet(visitor)).toMatchObject({ gold: 700 });
    const mismatch = await buy(visitor, { item: "frame_jade", currency: "gold" }, "shop-retry-0001");
    expect(mismatch.statusCode).toBe(422);
    expect(mismatch.json()).toMatchObject({ code: "idempotency_mismatch" });
    const noKey = await visitor.request("POST", "/api/shop/purchases/", { json: { item: "frame_jade", currency: "gold" } });
    expect(noKey.json()).toMatchObject({ code: "idempotency_key_required" });
    // A badge is bought once.
    const twice = await buy(visitor, { item: "badge_quill", currency: "gold" });
    expect(twice.statusCode).toBe(409);
    expect(twice.json()).toMatchObject({ code: "item_already_owned" });
    expect(await wallet(visitor)).toMatchObject({ gold: 700 });
    expect(await db().$count(shopOwnedItems, eq(shopOwnedItems.userId, user.id))).toBe(1);
  });

  it("wears only what one owns, one badge and one frame at a time, shown on the public profile", async () => {
    const { user, visitor } = await buyer();
    const other = await buyer();
    await grant(db(), user.id, "gold", 2000);
    const scholar = ((await buy(visitor, { item: "badge_scholar", currency: "gold" })).json() as { owned_id: number }).owned_id;
    const quill = ((await buy(visitor, { item: "badge_quill", currency: "gold" })).json() as { owned_id: number }).owned_id;
    const frame = ((await buy(visitor, { item: "frame_gold", currency: "gold" })).json() as { owned_id: number }).owned_id;
    expect((await visitor.request("PUT", `/api/shop/owned/${scholar}/wear/`)).statusCode).toBe(204);
    expect((await visitor.request("PUT", `/api/shop/owned/${frame}/wear/`)).statusCode).toBe(204);
    expect((await visitor.request("PUT", `/api/shop/owned/${quill}/wear/`)).statusCode).toBe(204);
    const worn = await db()
      .select({ item: shopOwnedItems.item })
      .from(shopOwnedItems)
      .where(and(eq(shopOwnedItems.userId, user.id), eq(shopOwnedItems.worn, true)));
    expect(worn.map((row) => row.item).sort()).toEqual(["badge_quill", "frame_gold"]);
    const profile = (await new Visitor(api.app).get(`/api/Users/profile/${user.username}/`)).json() as Record<string, unknown>;
    expect(profile).toMatchObject({ badge: "badge_quill", avatar_frame: "frame_gold" });
    // Someone else's item, or one that does not exist, cannot be worn.
    expect((await other.visitor.request("PUT", `/api/shop/owned/${scholar}/wear/`)).statusCode).toBe(404);
    expect((await other.visitor.request("PUT", "/api/shop/owned/99999999/wear/")).statusCode).toBe(404);
    expect((await new Visitor(api.app).request("PUT", `/api/shop/owned/${scholar}/wear/`)).statusCode).toBe(401);
    expect((await visitor.request("DELETE", `/api/shop/owned/${quill}/wear/`)).statusCode).toBe(204);
    const after = (await new Visitor(api.app).get(`/api/Users/profile/${user.username}/`)).json() as Record<string, unknown>;
    expect(after).toMatchObject({ badge: null, avatar_frame: "frame_gold" });
  });

  it("repairs a missed day of the streak once with one card, and refuses a day not missed or too old", async () => {
    const { user, visitor } = await buyer();
    await grant(db(), user.id, "gold", 300);
    const checkInOn = async (day: string) => {
      now = new Date(`${day}T02:00:00Z`);
      return visitor.post("/api/Users/checkin/");
    };
    for (const day of ["2026-12-01", "2026-12-02", "2026-12-04"]) expect((await checkInOn(day)).statusCode).toBe(200);
    now = new Date("2026-12-05T02:00:00Z");
    expect(((await visitor.get("/api/Users/checkin/")).json() as { consecutive_days: number }).consecutive_days).toBe(1);
    const makeUp = (date: string) => visitor.request("POST", "/api/checkins/makeup/", { json: { date } });
    // No card yet.
    expect((await makeUp("2026-12-03")).json()).toMatchObject({ code: "no_makeup_card" });
    expect((await buy(visitor, { item: "makeup_card", currency: "gold" })).statusCode).toBe(201);
    const goldBefore = (await wallet(visitor)).gold;
    const repaired = await makeUp("2026-12-03");
    expect(repaired.statusCode, repaired.body).toBe(200);
    expect(repaired.json()).toEqual({ date: "2026-12-03", consecutive_days: 4, cards_left: 0 });
    expect(((await visitor.get("/api/Users/checkin/")).json() as { consecutive_days: number }).consecutive_days).toBe(4);
    // The streak continues today from the repaired chain, and the card paid no gold.
    expect(await wallet(visitor)).toMatchObject({ gold: goldBefore });
    const today = await visitor.post("/api/Users/checkin/");
    expect(today.json()).toMatchObject({ consecutive_days: 5, total_days: 5, reward: 18 });
    const rows = await db().select().from(checkins).where(eq(checkins.userId, user.id));
    expect(rows.find((row) => row.day === "2026-12-03")).toMatchObject({ madeUp: true, reward: 0, consecutiveDays: 3 });
    // Exactly once: the same day again is not missed any more (and no second card is used).
    expect((await buy(visitor, { item: "makeup_card", currency: "gold" })).statusCode).toBe(201);
    const again = await makeUp("2026-12-03");
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({
      code: "makeup_day_not_missed",
      message: "You did not miss that day: there is nothing to make up.",
    });
    expect((await makeUp("2026-12-02")).json()).toMatchObject({ code: "makeup_day_not_missed" });
    const tooOld = await makeUp("2026-11-01");
    expect(tooOld.statusCode).toBe(400);
    expect(tooOld.json()).toMatchObject({ code: "makeup_day_out_of_range" });
    expect((await makeUp("2026-12-05")).json()).toMatchObject({ code: "makeup_day_out_of_range" });
    expect((await makeUp("2026-12-24")).json()).toMatchObject({ code: "makeup_day_out_of_range" });
    expect((await makeUp("not-a-day")).statusCode).toBe(400);
    const owned = (await visitor.get("/api/shop/owned/")).json() as { results: { used: boolean; used_for: string | null }[] };
    expect(owned.results.filter((item) => item.used).map((item) => item.used_for)).toEqual(["2026-12-03"]);
    expect(owned.results.filter((item) => !item.used)).toHaveLength(1);
    expect(ledgerIsConsistent(await checkLedger(db()))).toBe(true);
  });

  it("uses one card for two racing repairs of the same day", async () => {
    const { user, visitor } = await buyer();
    await grant(db(), user.id, "gold", 200);
    now = new Date("2026-12-10T02:00:00Z");
    expect((await buy(visitor, { item: "makeup_card", currency: "gold" })).statusCode).toBe(201);
    expect((await buy(visitor, { item: "makeup_card", currency: "gold" })).statusCode).toBe(201);
    const answers = await Promise.all(
      [1, 2, 3].map(() => visitor.request("POST", "/api/checkins/makeup/", { json: { date: "2026-12-08" } })),
    );
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409, 409]);
    const used = await db()
      .select({ usedFor: shopOwnedItems.usedFor })
      .from(shopOwnedItems)
      .where(and(eq(shopOwnedItems.userId, user.id), eq(shopOwnedItems.slot, "makeup_card")));
    expect(used.filter((row) => row.usedFor !== null)).toHaveLength(1);
  });

  it("highlights one of the buyer's writings in its circle for 24 hours, then stops by itself", async () => {
    const { user, visitor } = await buyer();
    const stranger = await buyer();
    await grant(db(), user.id, "sinecoin", 20);
    const circle = await createCircle(db());
    const writing = await createWriting(db(), user, { circleId: circle.id, title: "推荐阅读" });
    const someoneElses = await createWriting(db(), stranger.user, { circleId: circle.id });
    now = new Date("2026-12-10T04:00:00Z");
    const highlights = async () =>
      ((await new Visitor(api.app).get(`/api/shop/highlights/?circle_id=${circle.id}`)).json() as { results: { writing_id: number }[] })
        .results;
    expect(await highlights()).toEqual([]);
    const notMine = await buy(visitor, { item: "highlight_24h", currency: "sinecoin", writing_id: someoneElses.id });
    expect(notMine.statusCode).toBe(400);
    expect(notMine.json()).toMatchObject({
      code: "validation_failed",
      fields: { writing_id: "Choose one of your published writings to highlight." },
    });
    expect((await buy(visitor, { item: "highlight_24h", currency: "sinecoin" })).statusCode).toBe(400);
    expect(await wallet(visitor)).toMatchObject({ sinecoin: 20 });
    const bought = await buy(visitor, { item: "highlight_24h", currency: "sinecoin", writing_id: writing.id });
    expect(bought.statusCode, bought.body).toBe(201);
    expect(bought.json()).toMatchObject({ price: 5, balance: 15, expires_at: "2026-12-11T04:00:00.000Z" });
    expect(await highlights()).toEqual([expect.objectContaining({ writing_id: writing.id, title: "推荐阅读" })]);
    now = new Date("2026-12-11T03:59:00Z");
    expect(await highlights()).toHaveLength(1);
    now = new Date("2026-12-11T04:00:01Z");
    expect(await highlights()).toEqual([]);
    const owned = (await visitor.get("/api/shop/owned/")).json() as { results: { highlight: { active: boolean } | null }[] };
    expect(owned.results[0]!.highlight).toMatchObject({ active: false });
    expect((await new Visitor(api.app).get("/api/shop/highlights/?circle_id=99999999")).statusCode).toBe(404);
  });
});
