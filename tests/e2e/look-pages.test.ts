import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeBrowser, launchBrowser, newVisitor } from "./browser.ts";

beforeAll(launchBrowser);
afterAll(closeBrowser);

describe("the question page", () => {
  it("folds the question's comments behind 'N comments' and shows the answer orders as a segmented control", async () => {
    for (const [prefix, locale, label] of [
      ["", "zh-CN", /^\d+ 条评论$/],
      ["/en", "en", /^\d+ comments?$/],
    ] as const) {
      const { context, page } = await newVisitor({ locale, viewport: { width: 1280, height: 900 } });
      // The demo question (features/questions/seed.ts), through its legacy address.
      await page.goto(`${prefix}/community/questions/1`);
      const fold = page.getByTestId("question-comments");
      expect(await fold.evaluate((details) => (details as HTMLDetailsElement).open)).toBe(false);
      expect((await fold.locator("summary").textContent())!.trim()).toMatch(label);
      expect((await fold.boundingBox())!.height).toBeLessThan(80);
      await fold.locator("summary").click();
      expect(await page.getByTestId("comments").isVisible()).toBe(true);

      const sorts = page.locator(".answers-toolbar .sort-nav a");
      expect(await sorts.count()).toBe(2);
      const [first, second] = [(await sorts.nth(0).boundingBox())!, (await sorts.nth(1).boundingBox())!];
      expect(Math.abs(first.y - second.y)).toBeLessThan(2);
      expect(second.x).toBeGreaterThanOrEqual(first.x + first.width);
      expect(first.width).toBeGreaterThan(40);
      expect(await page.locator(".answers-toolbar .sort-nav").evaluate((nav) => getComputedStyle(nav).borderTopWidth)).toBe("1px");
      const current = page.locator('.answers-toolbar .sort-nav a[aria-current="true"]');
      expect(await current.evaluate((link) => getComputedStyle(link).backgroundColor)).not.toBe("rgba(0, 0, 0, 0)");
      await context.close();
    }
  });
});
