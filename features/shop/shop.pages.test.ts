import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApi, Visitor, type TestApi } from "../../tests/support/api.ts";
import { createCircle, createUser, createWriting, signedInVisitor } from "../../tests/support/factories.ts";
import { oneDatabaseKind } from "../../tests/support/database.ts";
import { grant } from "../../tests/support/money.ts";

/** The shop and the items on the personal centre as plain HTML forms (no JavaScript), in both languages, in this process. */
describe.each(oneDatabaseKind)("shop pages on %s", (kind) => {
  let api: TestApi;
  const now = new Date("2026-12-10T04:00:00Z");
  beforeAll(async () => {
    api = await createTestApi(kind, { pages: true, now: () => now });
  });
  afterAll(() => api.close());
  const db = () => api.database.db;
  const hidden = (html: string, name: string) => new RegExp(`name="${name}" value="([^"]+)"`).exec(html)?.[1] ?? "";
  const member = async () => {
    const user = await createUser(db());
    return { user, visitor: await signedInVisitor(api.app, db(), user) };
  };

  it("shows visitors every item with its drawn icon, prices and a sign-in link, in Chinese and in English", async () => {
    const zh = await new Visitor(api.app).get("/shop");
    expect(zh.statusCode).toBe(200);
    expect(zh.body).toContain("<title>商城");
    expect(zh.body).toContain("补签卡");
    expect(zh.body).toContain("翡翠头像框");
    expect(zh.body).toContain("登录后购买");
    expect([...zh.body.matchAll(/class="shop-icon"/g)].length).toBeGreaterThanOrEqual(7);
    expect(zh.body).toMatch(/data-testid="shop-item-makeup_card"[\s\S]*?amount-gold[\s\S]*?100/);
    const en = await new Visitor(api.app).get("/en/shop");
    expect(en.statusCode).toBe(200);
    expect(en.body).toContain("<title>Shop");
    expect(en.body).toContain("Make-up card");
    expect(en.body).toContain("Highlight for 24 hours");
    expect(en.body).toContain("Sign in to buy");
    expect(en.body).not.toMatch(/[\u{1F300}-\u{1FAFF}]/u);
  });

  it("preselects the currency the balance covers and shows each currency's price beside it, in both languages", async () => {
    const { user, visitor } = await member();
    await grant(db(), user.id, "gold", 10);
    await grant(db(), user.id, "sinecoin", 5);
    const checked = (html: string, item: string) =>
      new RegExp(`data-testid="shop-item-${item}"[\\s\\S]*?<input type="radio" name="currency" checked="" value="(\\w+)"`).exec(html)?.[1];
    const zh = (await visitor.get("/shop")).body;
    // 10 gold buys nothing; 5 sinecoin buys a make-up card (2) but not the star badge (10).
    expect(checked(zh, "makeup_card")).toBe("sinecoin");
    expect(checked(zh, "badge_star")).toBe("gold");
    expect(zh).toMatch(/data-testid="pay-gold"[\s\S]*?金币[\s\S]*?amount-value">100<[\s\S]*?（余额不足）/);
    expect(zh).toMatch(/data-testid="pay-sinecoin"[\s\S]*?圈币[\s\S]*?amount-value">2</);
    const en = (await visitor.get("/en/shop")).body;
    expect(checked(en, "makeup_card")).toBe("sinecoin");
    expect(en).toContain("(not enough)");
  });

  it("buys a make-up card once per form, uses it on a missed day and shows the line in the wallet (zh)", async () => {
    const { user, visitor } = await member();
    await grant(db(), user.id, "gold", 150);
    const token = await visitor.csrfToken();
    const shop = (await visitor.get("/shop")).body;
    const key = hidden(shop, "idempotency_key");
    expect(key).toMatch(/^[0-9a-f-]{36}$/);
    const form = { csrftoken: token, idempotency_key: key, intent: "buy", item: "makeup_card", currency: "gold" };
    const bought = await visitor.postForm("/shop", form);
    expect(bought.statusCode).toBe(303);
    expect(bought.headers.location).toBe("/shop?bought=makeup_card");
    // The same form sent again (a double click, a reload) buys nothing more.
    expect((await visitor.postForm("/shop", form)).statusCode).toBe(303);
    const after = (await visitor.get("/shop?bought=makeup_card")).body;
    expect(after).toContain("购买成功：补签卡");
    expect(after).toMatch(/data-testid="shop-balance"[\s\S]*?amount-value">50</);
    // Not enough gold for another: said on the page, in Chinese.
    const refused = await visitor.postForm("/shop", { ...form, idempotency_key: hidden(after, "idempotency_key") });
    expect(refused.statusCode).toBe(409);
    expect(refused.body).toContain("余额不足。");

    const home = (await visitor.get("/account/home")).body;
    expect(home).toContain("剩余 1 张补签卡");
    expect(home).toContain('<option value="2026-12-09"');
    const used = await visitor.postForm("/account/home", { csrftoken: token, intent: "makeup", date: "2026-12-09" });
    expect(used.statusCode).toBe(303);
    expect(used.headers.location).toBe("/account/home?made_up=2026-12-09&streak=1");
    const repaired = (await visitor.get(used.headers.location as string)).body;
    expect(repaired).toContain("已补签");
    expect(repaired).toContain("剩余 0 张补签卡");
    // A day that is not missed any more is refused on the card.
    await grant(db(), user.id, "gold", 100);
    await visitor.postForm("/shop", { ...form, idempotency_key: "second-card-0001" });
    const again = await visitor.postForm("/account/home", { csrftoken: token, intent: "makeup", date: "2026-12-09" });
    expect(again.statusCode).toBe(409);
    expect(again.body).toContain("那天没有漏签，无需补签。");

    const wallet = (await visitor.get("/wallet")).body;
    expect(wallet).toMatch(/<a href="\/shop"[^>]*>购买补签卡<\/a>/);
    expect(wallet).toContain('href="/shop"');
  });

  it("buys a badge and a frame with sinecoin, wears them, and shows them on the profile and the author card (en)", async () => {
    const { user, visitor } = await member();
    await grant(db(), user.id, "sinecoin", 100);
    const token = await visitor.csrfToken();
    const buy = async (item: string) => {
      const key = hidden((await visitor.get("/en/shop")).body, "idempotency_key");
      return visitor.postForm("/en/shop", { csrftoken: token, idempotency_key: key, intent: "buy", item, currency: "sinecoin" });
    };
    expect((await buy("badge_star")).headers.location).toBe("/en/shop?bought=badge_star");
    expect((await buy("frame_jade")).statusCode).toBe(303);
    const shop = (await visitor.get("/en/shop")).body;
    expect(shop).toMatch(/data-testid="shop-item-badge_star"[\s\S]*?Owned/);
    const home = (await visitor.get("/en/account/home")).body;
    const ownedId = (item: string) =>
      new RegExp(`data-testid="owned-${item}"[\\s\\S]*?name="owned_id" value="(\\d+)"`).exec(home)?.[1] ?? "";
    for (const item of ["badge_star", "frame_jade"]) {
      const worn = await visitor.postForm("/en/account/home", { csrftoken: token, intent: "wear", owned_id: ownedId(item) });
      expect(worn.statusCode).toBe(303);
    }
    const profile = (await new Visitor(api.app).get(`/en/profile/${user.username}`)).body;
    expect(profile).toMatch(/data-testid="worn-badge" data-item="badge_star"/);
    expect(profile).toMatch(/data-testid="avatar-frame" data-item="frame_jade"/);
    const circle = await createCircle(db());
    const writing = await createWriting(db(), user, { circleId: circle.id, title: "Framed author" });
    const reading = (await new Visitor(api.app).get(`/en/circles/${circle.id}/writing/${writing.id}`)).body;
    expect(reading).toMatch(/data-testid="author-card"[\s\S]*?data-item="frame_jade"[\s\S]*?data-item="badge_star"/);
    // Someone else's item cannot be worn from the form either.
    const other = await member();
    const refused = await other.visitor.postForm("/en/account/home", {
      csrftoken: await other.visitor.csrfToken(),
      intent: "wear",
      owned_id: ownedId("badge_star"),
    });
    expect(refused.statusCode).toBe(404);
    const wallet = (await visitor.get("/en/wallet")).body;
    expect(wallet).toContain("Bought Star medal");

    // A highlight of that writing shows on the circle's page.
    const key = hidden((await visitor.get("/en/shop")).body, "idempotency_key");
    const highlighted = await visitor.postForm("/en/shop", {
      csrftoken: token,
      idempotency_key: key,
      intent: "buy",
      item: "highlight_24h",
      currency: "sinecoin",
      writing_id: String(writing.id),
    });
    expect(highlighted.statusCode).toBe(303);
    const circlePage = (await new Visitor(api.app).get(`/en/circles/${circle.id}`)).body;
    expect(circlePage).toMatch(/data-testid="highlighted-list"[\s\S]*?Framed author/);
  });
});
