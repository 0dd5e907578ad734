import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { closeBrowser, hydrated, launchBrowser, newVisitor, signInAsNewUser } from "./browser.ts";

beforeAll(launchBrowser);
afterAll(closeBrowser);

/** Checks in on the personal centre, then claims the daily check-in mission on the missions page. */
async function checkInAndClaim(page: Page, prefix: "" | "/en", texts: { completed: string; claim: string; claimed: string }) {
  await page.goto(`${prefix}/account/home`);
  await hydrated(page);
  await page.getByTestId("checkin-button").click();
  await expect.poll(() => page.getByTestId("checkin-button").isDisabled()).toBe(true);
  await page.goto(`${prefix}/account/home`);
  const gold = Number(await page.getByTestId("gold").textContent());

  await page.goto(`${prefix}/account/missions`);
  const row = page.locator('[data-mission="daily_checkin"]');
  await expect.poll(() => row.locator(".mission-status").textContent()).toBe(texts.completed);
  expect(await row.locator("progress").getAttribute("value")).toBe("1");
  await row.getByRole("button", { name: texts.claim }).click();
  await expect.poll(() => page.getByTestId("mission-claimed").textContent()).toContain(texts.claimed);
  await expect.poll(() => row.locator(".mission-status").textContent()).not.toBe(texts.completed);
  expect(await row.getByRole("button").count()).toBe(0);

  await page.goto(`${prefix}/account/home`);
  expect(Number(await page.getByTestId("gold").textContent())).toBe(gold + 10);
}

describe("missions", () => {
  it("a user checks in, sees the daily mission completed and claims its gold once (zh)", async () => {
    const { context, page } = await newVisitor({ locale: "zh-CN" });
    await signInAsNewUser(context);
    await checkInAndClaim(page, "", { completed: "已完成", claim: "领取奖励", claimed: "已领取奖励" });
    const row = page.locator('[data-mission="daily_checkin"]');
    await page.goto("/account/missions");
    expect(await row.locator(".mission-status").textContent()).toBe("已领取");
    await context.close();
  });

  it("the same in English", async () => {
    const { context, page } = await newVisitor({ locale: "en" });
    await signInAsNewUser(context);
    await checkInAndClaim(page, "/en", { completed: "Completed", claim: "Claim reward", claimed: "Reward claimed" });
    await page.goto("/en/account/missions?scope=weekly");
    expect(await page.locator('[data-mission="weekly_likes"] .mission-status').textContent()).toBe("In progress");
    await context.close();
  });
});
