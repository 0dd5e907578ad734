import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeBrowser, hydrated, launchBrowser, newVisitor, publishArticle, signInAsNewUser, uniqueName } from "./browser.ts";

beforeAll(launchBrowser);
afterAll(closeBrowser);

describe("share is a popover", () => {
  it("opens over the page without pushing the action bar, with copy link, WeChat (QR), Weibo and QQ; Escape and a click outside close it", async () => {
    const writer = await newVisitor({ locale: "zh-CN" });
    await signInAsNewUser(writer.context);
    const title = uniqueName("分享之文 ");
    const article = await publishArticle(writer.context, title);
    await writer.context.close();

    const { context, page } = await newVisitor({ locale: "zh-CN", viewport: { width: 1280, height: 900 } });
    await page.goto(article);
    await hydrated(page);
    const bar = page.getByTestId("action-bar");
    const before = (await bar.boundingBox())!;
    const share = bar.getByTestId("share");
    await share.locator("summary").click();
    const body = share.getByTestId("share-body");
    await body.getByTestId("copy-link").waitFor();
    const after = (await bar.boundingBox())!;
    expect(after.height).toBe(before.height);
    expect(await body.evaluate((element) => getComputedStyle(element).position)).toBe("absolute");
    const pageUrl = new URL(article, page.url()).href;
    const weibo = new URL((await body.getByTestId("share-weibo").getAttribute("href"))!);
    expect(weibo.hostname).toBe("service.weibo.com");
    expect(weibo.searchParams.get("url")).toBe(pageUrl);
    expect(weibo.searchParams.get("title")).toBe(title);
    const qq = new URL((await body.getByTestId("share-qq").getAttribute("href"))!);
    expect(qq.hostname).toBe("connect.qq.com");
    expect(qq.searchParams.get("url")).toBe(pageUrl);
    expect(await body.getByTestId("share-wechat").textContent()).toBe("微信");
    expect(await body.locator(".share-qr img").isVisible()).toBe(true);

    await page.keyboard.press("Escape");
    await expect.poll(() => share.evaluate((details) => (details as HTMLDetailsElement).open)).toBe(false);
    await share.locator("summary").click();
    await expect.poll(() => share.evaluate((details) => (details as HTMLDetailsElement).open)).toBe(true);
    await page.locator("h1").click();
    await expect.poll(() => share.evaluate((details) => (details as HTMLDetailsElement).open)).toBe(false);
    await context.close();
  });

  it("on a phone it is a sheet along the bottom and the page does not scroll sideways", async () => {
    const writer = await newVisitor({ locale: "en" });
    await signInAsNewUser(writer.context);
    const article = await publishArticle(writer.context, uniqueName("Shared "));
    await writer.context.close();
    const { context, page } = await newVisitor({ locale: "en", viewport: { width: 390, height: 844 } });
    await page.goto(`/en${article}`);
    await hydrated(page);
    const share = page.getByTestId("action-bar").getByTestId("share");
    await share.locator("summary").click();
    const body = share.getByTestId("share-body");
    await body.getByTestId("share-qq").waitFor();
    const box = (await body.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    expect(box.y + box.height).toBeLessThanOrEqual(844);
    expect(await page.evaluate(() => document.scrollingElement!.scrollWidth - window.innerWidth)).toBe(0);
    await context.close();
  });
});
