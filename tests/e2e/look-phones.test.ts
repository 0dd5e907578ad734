import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeBrowser, hydrated, launchBrowser, newVisitor, publishArticle, signInAsNewUser, uniqueName } from "./browser.ts";

beforeAll(launchBrowser);
afterAll(closeBrowser);

const phone = { viewport: { width: 390, height: 844 } };

describe("phones", () => {
  it("the header is one row with the search behind its magnifier, in both languages, signed in and out", async () => {
    for (const locale of ["zh-CN", "en"] as const) {
      const prefix = locale === "en" ? "/en" : "";
      for (const signedIn of [false, true]) {
        const { context, page } = await newVisitor({ ...phone, locale });
        if (signedIn) await signInAsNewUser(context);
        await page.goto(`${prefix}/circles`);
        await hydrated(page);
        const header = (await page.locator(".site-header").boundingBox())!;
        expect(header.height, `${locale} ${signedIn}`).toBeLessThanOrEqual(60);
        expect(await page.evaluate(() => document.scrollingElement!.scrollWidth - window.innerWidth)).toBe(0);
        // Every item of the header sits inside the screen.
        for (const item of await page.locator(".site-header-inner > *:visible, .site-actions > *:visible").all()) {
          const box = (await item.boundingBox())!;
          expect(box.x + box.width, `${locale} ${signedIn} ${await item.evaluate((e) => e.className)}`).toBeLessThanOrEqual(390);
        }
        // Nothing overlaps: the last link of the main navigation ends before the magnifier.
        const lastLink = (await page.locator(".site-nav a:visible").last().boundingBox())!;
        const magnifier = (await page.getByTestId("search-toggle").boundingBox())!;
        expect(lastLink.x + lastLink.width, `${locale} ${signedIn}`).toBeLessThanOrEqual(magnifier.x);
        const input = page.locator(".site-search-input");
        expect(await input.isVisible()).toBe(false);
        await page.getByTestId("search-toggle").click();
        await expect.poll(() => input.isVisible()).toBe(true);
        await expect.poll(() => input.evaluate((element) => element === document.activeElement)).toBe(true);
        await input.fill("数学");
        await input.press("Enter");
        await page.waitForURL(/\/search\?q=/);
        await context.close();
      }
    }
  });

  it("the wallet's, the messages', the creator centre's and the account's menus are a scrolling row of tabs above the page", async () => {
    const { context, page } = await newVisitor({ ...phone, locale: "zh-CN" });
    await signInAsNewUser(context);
    for (const [path, nav] of [
      ["/wallet", ".account-nav"],
      ["/account/home", ".account-nav"],
      ["/creator", ".account-nav"],
      ["/messages/like_attention", ".message-nav"],
      ["/en/wallet/sinecoin_recharge", ".account-nav"],
    ] as const) {
      await page.goto(path);
      const links = page.locator(`${nav} li a`);
      const tops = new Set<number>();
      for (const link of await links.all()) tops.add(Math.round((await link.boundingBox())!.y));
      expect(tops.size, path).toBe(1);
      const list = page.locator(`${nav} ul`);
      expect(await list.evaluate((element) => getComputedStyle(element).overflowX), path).toBe("auto");
      expect((await page.locator(nav).boundingBox())!.height, path).toBeLessThan(130);
      expect(await page.evaluate(() => document.scrollingElement!.scrollWidth - window.innerWidth), path).toBe(0);
    }
    await context.close();
  });

  it("an article's table of contents is folded above the text on a phone, open beside it on a desktop", async () => {
    const writer = await newVisitor({ locale: "zh-CN" });
    await signInAsNewUser(writer.context);
    const article = await publishArticle(writer.context, uniqueName("有目录的文章 "), "## 第一节\n\n正文。\n\n## 第二节\n\n正文。\n");
    await writer.context.close();
    const narrow = await newVisitor({ ...phone, locale: "zh-CN" });
    await narrow.page.goto(article);
    const fold = narrow.page.getByTestId("toc-fold");
    const firstLink = fold.locator("ol a").first();
    expect(await firstLink.isVisible()).toBe(false);
    expect((await fold.boundingBox())!.height).toBeLessThan(60);
    await fold.locator("summary").click();
    expect(await firstLink.isVisible()).toBe(true);
    await narrow.context.close();
    const wide = await newVisitor({ viewport: { width: 1280, height: 900 }, locale: "zh-CN" });
    await wide.page.goto(article);
    expect(await wide.page.getByTestId("toc-fold").locator("ol a").first().isVisible()).toBe(true);
    await wide.context.close();
  });
});
