import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BrowserContext } from "playwright-core";
import { closeBrowser, hydrated, launchBrowser, newVisitor, signInAsNewUser, uniqueName } from "./browser.ts";

beforeAll(launchBrowser);
afterAll(closeBrowser);

/** An article published through the API (tips on, or with a paid part). */
async function publishArticle(context: BrowserContext, title: string, extra: Record<string, unknown> = {}): Promise<string> {
  const { csrftoken } = (await (await context.request.get("/api/get_csrf_token/")).json()) as { csrftoken: string };
  const response = await context.request.post("/api/circles/1/writings/", {
    headers: { "x-csrftoken": csrftoken },
    data: { title, content: "值得赞赏的正文。\n", tip_enabled: true, ...extra },
  });
  if (response.status() !== 201) throw new Error(`Publishing failed (${response.status()}): ${await response.text()}`);
  return ((await response.json()) as { url: string }).url;
}

describe("the sinecoin economy", () => {
  it("tops up 50 through the sandbox cashier, tips an article, unlocks a paid one, buys and uses a make-up card in the shop and sees the lines in the wallet (zh), then the shop and the wallet in English", async () => {
    const writer = await newVisitor({ locale: "zh-CN" });
    await signInAsNewUser(writer.context);
    const title = uniqueName("赞赏之文 ");
    const article = await publishArticle(writer.context, title);
    const paidTitle = uniqueName("付费之文 ");
    const secret = uniqueName("只有解锁才看得到 ");
    const paidArticle = await publishArticle(writer.context, paidTitle, {
      content: `免费的开头。\n\n<!-- paywall -->\n\n${secret}\n`,
      pay_to_view: { price: 10 },
    });
    // A visitor's page (the cached copy too) has the free part only.
    const visitor = await newVisitor({ locale: "zh-CN" });
    for (let load = 0; load < 2; load += 1) {
      const response = await visitor.page.goto(paidArticle);
      const html = (await response!.text()) ?? "";
      expect(html).toContain("免费的开头");
      expect(html).not.toContain(secret);
    }
    await visitor.context.close();

    const reader = await newVisitor({ locale: "zh-CN" });
    await signInAsNewUser(reader.context);
    const { page } = reader;
    await page.goto("/wallet/sinecoin_recharge");
    expect(await page.locator("h1").textContent()).toBe("获取圈币");
    expect(await page.getByRole("note").textContent()).toContain("不收取任何费用");
    await page.locator('input[name="choice"][value="50"]').check();
    await page.locator('input[name="method"][value="alipay"]').check();
    await page.getByRole("button", { name: "去支付" }).click();
    await page.waitForURL(/\/payments\/sandbox\/tp_/);
    await expect.poll(() => page.locator("h1").textContent()).toBe("支付沙箱收银台");
    await page.getByRole("button", { name: "确认支付" }).click();
    await page.waitForURL(/\/wallet\/topups\/tp_/);
    await expect.poll(() => page.getByTestId("topup-status").getAttribute("data-status")).toBe("paid");
    expect(await page.getByTestId("topup-status").textContent()).toContain("50");

    // Tipping happens in a dialog on the article: the reader never leaves it.
    await page.goto(article);
    await hydrated(page);
    const articleUrl = page.url();
    const tipButton = page.getByTestId("action-bar").getByTestId("tip");
    // Without JavaScript the button is the tip page's link.
    expect(await tipButton.getAttribute("href")).toMatch(/\/subjects\/writing\/\d+\/tip\?next=/);
    await tipButton.click();
    const dialog = page.getByTestId("tip-dialog");
    await dialog.getByTestId("tip-dialog-form").waitFor();
    expect(await dialog.getByTestId("balance-line").textContent()).toMatch(/^当前余额\s*50\b/);
    // Preset amounts are cards; the custom amount shows only once chosen.
    expect(await dialog.locator(".amount-card").count()).toBe(5);
    const custom = dialog.locator('input[name="custom_amount"]');
    expect(await custom.isVisible()).toBe(false);
    await dialog.locator(".amount-card", { hasText: "自定义" }).click();
    expect(await custom.isVisible()).toBe(true);
    await dialog.locator('.amount-card:has(input[value="5"])').click();
    expect(await custom.isVisible()).toBe(false);
    await dialog.locator('textarea[name="message"]').fill("谢谢分享");
    await dialog.getByTestId("tip-submit").click();
    await expect.poll(() => dialog.getByTestId("tip-done").textContent()).toContain("感谢你的赞赏");
    expect(await dialog.getByTestId("balance-line").textContent()).toMatch(/^当前余额\s*45\b/);
    expect(await dialog.getByTestId("tip-count").textContent()).toContain("1");
    expect(page.url()).toBe(articleUrl);
    await dialog.getByTestId("tip-close").click();
    await expect.poll(() => dialog.count()).toBe(0);
    expect(page.url()).toBe(articleUrl);
    // The tip page (for browsers without JavaScript) knows the tip too.
    await page.goto((await tipButton.getAttribute("href"))!);
    expect(await page.getByTestId("tip-count").textContent()).toContain("1");
    expect(await page.getByTestId("balance-line").textContent()).toMatch(/^当前余额\s*45\b/);

    await page.goto(paidArticle);
    expect(await page.getByTestId("writing").textContent()).not.toContain(secret);
    await page.getByTestId("unlock").click();
    await expect.poll(() => page.getByTestId("writing").textContent()).toContain(secret);

    // The author sends a red packet (5 each) on the first article; the reader opens one share.
    const { csrftoken } = (await (await writer.context.request.get("/api/get_csrf_token/")).json()) as { csrftoken: string };
    const articleId = Number(/\/writing\/(\d+)/.exec(article)![1]);
    const funded = await writer.context.request.post(`/api/writings/${articleId}/red_packets/`, {
      headers: { "x-csrftoken": csrftoken, "idempotency-key": uniqueName("fund-") },
      data: { total: 10, shares: 2, split: "equal", expires_in_hours: 24 },
    });
    expect(funded.status()).toBe(201);
    await page.goto(article);
    await page.getByTestId("open-red-packet").click();
    await expect.poll(() => page.getByTestId("red-packet-got").count()).toBe(1);
    expect(await page.getByTestId("red-packet-got").textContent()).toContain("5");

    await page.goto("/wallet");
    await expect.poll(() => page.getByTestId("wallet-sinecoin").textContent()).toContain("40");
    const lines = page.getByTestId("wallet-movements");
    expect(await lines.textContent()).toContain(`赞赏《${title}》`);
    expect(await lines.textContent()).toContain("充值");
    expect(await lines.textContent()).toContain(`解锁《${paidTitle}》`);
    expect(await lines.textContent()).toContain("的红包");

    // The shop: buy a make-up card with sinecoin, use it on yesterday, see the line in the wallet.
    await page.getByRole("link", { name: "商城" }).first().click();
    await page.waitForURL(/\/shop$/);
    await expect.poll(() => page.locator("h1").textContent()).toBe("商城");
    const card = page.getByTestId("shop-item-makeup_card");
    await card.locator('input[name="currency"][value="sinecoin"]').check();
    await card.getByRole("button", { name: "购买" }).click();
    await page.waitForURL(/\/shop\?bought=makeup_card/);
    expect(await page.getByTestId("shop-notice").textContent()).toContain("购买成功：补签卡");
    await page.goto("/account/home");
    expect(await page.getByTestId("makeup-cards-left").textContent()).toBe("剩余 1 张补签卡");
    await page.getByTestId("owned-makeup-cards").getByRole("button", { name: "使用补签卡" }).click();
    await expect.poll(() => page.getByTestId("made-up-notice").count()).toBe(1);
    expect(await page.getByTestId("made-up-notice").textContent()).toContain("已补签");
    expect(await page.getByTestId("makeup-cards-left").textContent()).toBe("剩余 0 张补签卡");
    await page.goto("/wallet");
    await expect.poll(() => page.getByTestId("wallet-sinecoin").textContent()).toContain("38");
    const bought = page.getByTestId("wallet-movements").getByRole("link", { name: "购买补签卡" });
    expect(await bought.getAttribute("href")).toBe("/shop");

    // The same in English: the second card repairs the day before.
    await page.goto("/en/shop");
    await expect.poll(() => page.locator("h1").textContent()).toBe("Shop");
    const englishCard = page.getByTestId("shop-item-makeup_card");
    await englishCard.locator('input[name="currency"][value="sinecoin"]').check();
    await englishCard.getByRole("button", { name: "Buy" }).click();
    await page.waitForURL(/\/en\/shop\?bought=makeup_card/);
    expect(await page.getByTestId("shop-notice").textContent()).toContain("Bought: Make-up card");
    await page.goto("/en/account/home");
    expect(await page.getByTestId("makeup-cards-left").textContent()).toBe("1 make-up card left");
    await page.getByTestId("owned-makeup-cards").getByRole("button", { name: "Use a make-up card" }).click();
    await expect.poll(() => page.getByTestId("made-up-notice").count()).toBe(1);
    expect(await page.getByTestId("made-up-notice").textContent()).toContain("Check-in made up for");

    await page.goto("/en/wallet");
    await expect.poll(() => page.locator("h1").textContent()).toBe("My wallet");
    expect(await page.getByTestId("wallet-movements").textContent()).toContain(`Tip to “${title}”`);
    expect(await page.getByTestId("wallet-movements").getByRole("link", { name: "Bought Make-up card" }).count()).toBe(2);

    // The author sees the tip among what came in.
    await writer.page.goto("/en/wallet/reward");
    expect(await writer.page.getByTestId("wallet-movements").textContent()).toContain(`tipped “${title}”`);
    await writer.context.close();
    await reader.context.close();
  });
});
