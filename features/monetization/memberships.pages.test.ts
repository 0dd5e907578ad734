import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { createTestApi, type TestApi, type Visitor } from "../../tests/support/api.ts";
import { createSignedInUser } from "../../tests/support/factories.ts";
import { databaseKinds } from "../../tests/support/database.ts";
import { grant } from "../../tests/support/money.ts";
import { events, ledgerTransactions, memberships, monetizationApplications, notifications, users } from "../../server/db/schema/index.ts";
import { checkLedger, ledgerIsConsistent } from "../ledger/check.ts";
import { forgetSessionsOf } from "../accounts/session-cache.server.ts";

let keys = 0;
const key = () => `membership-test-${Date.now()}-${(keys += 1)}`;
const day = 24 * 60 * 60 * 1000;

describe.each(databaseKinds)("VIP and SVIP memberships on %s", (kind) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi(kind, { jobs: true, pages: true });
  });
  afterAll(() => api.close());
  const db = () => api.database.db;
  const buy = (visitor: Visitor, body: Record<string, unknown>, idempotencyKey = key()) =>
    visitor.request("POST", "/api/monetization/membership/", { json: body, headers: { "idempotency-key": idempotencyKey } });
  const typeOf = async (userId: number) => (await db().select({ t: users.userType }).from(users).where(eq(users.id, userId)))[0]!.t;
  const sinecoinOf = async (userId: number) => (await db().select({ s: users.sinecoin }).from(users).where(eq(users.id, userId)))[0]!.s;
  const consistent = async () => expect(ledgerIsConsistent(await checkLedger(db()))).toBe(true);
  /** Runs the expiry job as of `days` from now. */
  const expireAsOf = (days: number) => api.jobs!.runJobNow("expire-memberships", { asOf: new Date(Date.now() + days * day).toISOString() });

  it("lists the plans, shows the membership path's progress, and refuses bad plans and short purses", async () => {
    const { user, visitor } = await createSignedInUser(api.app, db());
    const listed = (await visitor.get("/api/monetization/membership/")).json();
    expect(listed.membership).toBeNull();
    expect(listed.plans).toEqual([
      {
        tier: "vip",
        user_type: "VIP users",
        prices: [
          { days: 30, price: 30 },
          { days: 90, price: 80 },
          { days: 365, price: 300 },
        ],
        benefits: ["programme", "ad_free", "mark"],
      },
      expect.objectContaining({ tier: "svip", user_type: "SVIP users" }),
    ]);
    await grant(db(), user.id, "sinecoin", 12);
    const status = (await visitor.get("/api/monetization/")).json();
    expect(status.paths[1]).toEqual({
      key: "membership",
      criteria: [{ key: "sinecoin_balance", required: 30, bound: "at_least", current: 12, met: false }],
    });
    expect((await buy(visitor, { tier: "gold", days: 30 })).json()).toMatchObject({
      code: "validation_failed",
      fields: { tier: expect.any(String) },
    });
    expect((await buy(visitor, { tier: "vip", days: 31 })).json()).toMatchObject({
      code: "validation_failed",
      fields: { days: expect.any(String) },
    });
    expect((await visitor.request("POST", "/api/monetization/membership/", { json: { tier: "vip", days: 30 } })).json()).toMatchObject({
      code: "idempotency_key_required",
    });
    const short = await buy(visitor, { tier: "vip", days: 30 });
    expect(short.statusCode).toBe(409);
    expect(short.json().code).toBe("insufficient_balance");
    expect(await typeOf(user.id)).toBe("Registered users");
    expect(await db().select().from(memberships).where(eq(memberships.userId, user.id))).toEqual([]);
    const page = (await visitor.get("/monetization")).body;
    expect(page).toContain("或者购买 VIP / SVIP 会员");
    expect(page).toContain("/shop#membership");
    expect((await visitor.get("/en/monetization")).body).toContain("Sinecoin for the cheapest plan: at least 30");
  });

  it("makes the buyer a VIP at once, extends the same tier from its end, refuses the other tier, and pays once per key", async () => {
    const { user, visitor } = await createSignedInUser(api.app, db());
    await grant(db(), user.id, "sinecoin", 200);
    const idempotencyKey = key();
    const bought = await buy(visitor, { tier: "vip", days: 30 }, idempotencyKey);
    expect(bought.statusCode, bought.body).toBe(201);
    expect(bought.json()).toMatchObject({
      price: 30,
      balance: 170,
      membership: { tier: "vip", days: 30, active: true, auto_renew: false },
    });
    const replay = await buy(visitor, { tier: "vip", days: 30 }, idempotencyKey);
    expect(replay.json()).toEqual(bought.json());
    expect(await sinecoinOf(user.id)).toBe(170);
    expect(await typeOf(user.id)).toBe("VIP users");
    forgetSessionsOf(user.id);
    expect((await visitor.get("/monetization")).headers.location).toBe("/monetization/home");
    const firstEnd = new Date(bought.json().membership.ends_at).getTime();
    const extended = await buy(visitor, { tier: "vip", days: 90 });
    expect(extended.json().membership.ends_at).toBe(new Date(firstEnd + 90 * day).toISOString());
    expect(extended.json().membership.starts_at).toBe(bought.json().membership.starts_at);
    const other = await buy(visitor, { tier: "svip", days: 30 });
    expect(other.statusCode).toBe(409);
    expect(other.json().code).toBe("membership_other_tier");
    expect(await sinecoinOf(user.id)).toBe(90);
    const charges = await db()
      .select({ data: ledgerTransactions.data })
      .from(ledgerTransactions)
      .where(and(eq(ledgerTransactions.kind, "membership_purchase")));
    expect(charges.filter((row) => (row.data as { endsAt: string }).endsAt.length > 0).length).toBeGreaterThanOrEqual(2);
    const purchased = await db()
      .select()
      .from(events)
      .where(and(eq(events.verb, "membership.purchased"), eq(events.subjectId, user.id)));
    expect(purchased.map((row) => row.data)).toEqual([
      expect.objectContaining({ tier: "vip", days: 30, price: 30, extended: false }),
      expect.objectContaining({ tier: "vip", days: 90, price: 80, extended: true }),
    ]);
    await consistent();
  });

  it("ends a membership once at its end and gives back the type it raised; an approved creator stays Official", async () => {
    const plain = await createSignedInUser(api.app, db());
    const creator = await createSignedInUser(api.app, db(), { userType: "Official users" });
    await db().insert(monetizationApplications).values({ userId: creator.user.id, status: "approved" });
    for (const someone of [plain, creator]) {
      await grant(db(), someone.user.id, "sinecoin", 100);
      expect((await buy(someone.visitor, { tier: "svip", days: 30 })).statusCode).toBe(201);
      expect(await typeOf(someone.user.id)).toBe("SVIP users");
    }
    await expireAsOf(10);
    expect(await typeOf(plain.user.id)).toBe("SVIP users");
    await expireAsOf(31);
    expect(await typeOf(plain.user.id)).toBe("Registered users");
    expect(await typeOf(creator.user.id)).toBe("Official users");
    const [row] = await db().select().from(memberships).where(eq(memberships.userId, plain.user.id));
    expect(row!.endedAt).not.toBeNull();
    // A second run finds nothing due: no second event, no second notice.
    await expireAsOf(32);
    const ended = await db()
      .select()
      .from(events)
      .where(and(eq(events.verb, "membership.expired"), eq(events.subjectId, plain.user.id)));
    expect(ended.map((event) => event.data)).toEqual([{ tier: "svip", reason: "ended" }]);
    const notices = await db()
      .select()
      .from(notifications)
      .where(and(eq(notifications.recipientId, plain.user.id), eq(notifications.verb, "membership.expired")));
    expect(notices).toHaveLength(1);
    expect((await plain.visitor.get("/api/monetization/membership/")).json().membership).toMatchObject({ tier: "svip", active: false });
    // After the end another tier may be bought, from now.
    expect((await buy(plain.visitor, { tier: "vip", days: 30 })).statusCode).toBe(201);
    expect(await typeOf(plain.user.id)).toBe("VIP users");
    await consistent();
  });

  it("renews automatically once per period while the purse covers it, then ends with the reason", async () => {
    const { user, visitor } = await createSignedInUser(api.app, db());
    await grant(db(), user.id, "sinecoin", 70);
    expect((await buy(visitor, { tier: "vip", days: 30, auto_renew: true })).json().membership.auto_renew).toBe(true);
    await expireAsOf(31);
    await expireAsOf(31);
    expect(await sinecoinOf(user.id)).toBe(10);
    const [renewed] = await db().select().from(memberships).where(eq(memberships.userId, user.id));
    expect(renewed!.endedAt).toBeNull();
    expect(await typeOf(user.id)).toBe("VIP users");
    const renewals = await db()
      .select()
      .from(events)
      .where(and(eq(events.verb, "membership.renewed"), eq(events.subjectId, user.id)));
    expect(renewals).toHaveLength(1);
    await expireAsOf(62);
    expect(await sinecoinOf(user.id)).toBe(10);
    expect(await typeOf(user.id)).toBe("Registered users");
    const [ended] = await db()
      .select()
      .from(events)
      .where(and(eq(events.verb, "membership.expired"), eq(events.subjectId, user.id)));
    expect(ended!.data).toEqual({ tier: "vip", reason: "insufficient_balance" });
    await consistent();
  });

  it("turns automatic renewal off and on through the API and the shop's forms, in both languages", async () => {
    const { user, visitor } = await createSignedInUser(api.app, db());
    expect((await visitor.request("PUT", "/api/monetization/membership/auto_renew/", { json: { auto_renew: true } })).statusCode).toBe(404);
    await grant(db(), user.id, "sinecoin", 100);
    const shop = await visitor.get("/shop");
    expect(shop.body).toContain("VIP 与 SVIP 会员");
    expect(shop.body).toContain("参与创作者收益计划");
    const token = await visitor.csrfToken();
    const formKey = /name="idempotency_key" value="([^"]+)"/.exec(shop.body)![1]!;
    const posted = await visitor.postForm("/shop", {
      csrftoken: token,
      idempotency_key: formKey,
      intent: "membership",
      tier: "vip",
      days: "90",
      auto_renew: "true",
    });
    expect(posted.statusCode, posted.body).toBe(303);
    expect(posted.headers.location).toBe("/shop?member=1#membership");
    expect(await sinecoinOf(user.id)).toBe(20);
    forgetSessionsOf(user.id);
    const after = await visitor.get("/en/shop?member=1");
    expect(after.body).toContain("Done: your VIP membership runs until");
    expect(after.body).toContain("Automatic renewal is on.");
    const off = await visitor.postForm("/shop", { csrftoken: token, intent: "auto_renew", auto_renew: "false" });
    expect(off.statusCode, off.body).toBe(303);
    expect((await visitor.get("/api/monetization/membership/")).json().membership).toMatchObject({
      tier: "vip",
      days: 90,
      auto_renew: false,
    });
    const wrong = await visitor.postForm("/shop", {
      csrftoken: token,
      idempotency_key: key(),
      intent: "membership",
      tier: "svip",
      days: "30",
    });
    expect(wrong.statusCode).toBe(409);
    expect(wrong.body).toContain("你持有另一档会员");
  });
});
