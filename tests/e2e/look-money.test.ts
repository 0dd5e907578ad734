import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Locator } from "playwright-core";
import { closeBrowser, launchBrowser, newVisitor, signInAsNewUser } from "./browser.ts";

beforeAll(launchBrowser);
afterAll(closeBrowser);

const box = async (locator: Locator) => (await locator.boundingBox())!;

describe("the money pages look designed", () => {
  it("top-up: preset amounts are cards, the custom field shows only once chosen, the balance is labelled, the order reads as a receipt", async () => {
    const { context, page } = await newVisitor({ locale: "zh-CN", viewport: { width: 1280, height: 900 } });
    await signInAsNewUser(context);
    await page.goto("/wallet/sinecoin_recharge");

    const cards = page.locator(".amount-choice .amount-card");
    expect(await cards.count()).toBeGreaterThanOrEqual(7);
    const [first, second] = [await box(cards.nth(0)), await box(cards.nth(1))];
    // Side by side, as tall as a card, with a border: not a row of radio buttons.
    expect(Math.abs(first.y - second.y)).toBeLessThan(2);
    expect(second.x).toBeGreaterThan(first.x + first.width - 1);
    expect(first.height).toBeGreaterThanOrEqual(50);
    expect(await cards.nth(0).evaluate((card) => getComputedStyle(card).borderTopWidth)).toBe("1px");
    // The radio itself is unseen over its card (the card is what one sees and clicks).
    expect(await page.locator('input[name="choice"][value="50"]').evaluate((radio) => getComputedStyle(radio).opacity)).toBe("0");

    const custom = page.locator('input[name="custom_amount"]');
    expect(await custom.isVisible()).toBe(false);
    await page.locator(".amount-card", { hasText: "自定义数量" }).click();
    expect(await custom.isVisible()).toBe(true);
    await page.locator(".amount-card", { hasText: "20" }).first().click();
    expect(await custom.isVisible()).toBe(false);

    expect(await page.getByTestId("balance-line").textContent()).toMatch(/^当前余额\s*0\b/);

    await page.locator('input[name="choice"][value="50"]').check();
    await page.getByRole("button", { name: "去支付" }).click();
    await page.waitForURL(/\/payments\/sandbox\/tp_/);
    const receipt = page.getByTestId("order-receipt");
    await receipt.waitFor();
    // A receipt: every label on the line of its value, the value at the right edge.
    const receiptBox = await box(receipt);
    for (const row of await receipt.locator(":scope > div").all()) {
      const [label, value] = [await box(row.locator("dt")), await box(row.locator("dd"))];
      expect(Math.abs(label.y + label.height - (value.y + value.height))).toBeLessThan(8);
      expect(receiptBox.x + receiptBox.width - (value.x + value.width)).toBeLessThan(30);
    }
    await page.getByRole("button", { name: "确认支付" }).click();
    await page.waitForURL(/\/wallet\/topups\/tp_/);
    await expect.poll(() => page.getByTestId("topup-status").getAttribute("data-status")).toBe("paid");
    // No stray space after the full-width comma.
    expect(await page.getByTestId("topup-status").textContent()).toBe("支付成功，50 圈币已到账。");
    await page.getByTestId("order-receipt").waitFor();
    expect(await page.getByTestId("balance-line").textContent()).toMatch(/^当前余额\s*50\b/);
    await context.close();
  });

  it("the balance is labelled in English too, and the wallet's cards keep their borders in dark mode", async () => {
    const { context, page } = await newVisitor({ locale: "en", colorScheme: "dark" });
    await signInAsNewUser(context);
    await page.goto("/en/wallet/sinecoin_recharge");
    expect(await page.getByTestId("balance-line").textContent()).toMatch(/^Your balance\s*0\b/);
    await page.goto("/en/wallet");
    const border = await page
      .locator(".wallet-balance")
      .first()
      .evaluate((card) => getComputedStyle(card).borderTopColor);
    // A light border on the dark panel (it was a black one, invisible there).
    const [red, green, blue] = border.match(/\d+(\.\d+)?/g)!.map(Number);
    expect(Math.min(red!, green!, blue!)).toBeGreaterThan(128);
    await context.close();
  });
});
