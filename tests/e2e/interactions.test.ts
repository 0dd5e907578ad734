import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { closeBrowser, launchBrowser, newVisitor, signInAsNewUser, uniqueName, hydrated, publishArticle } from "./browser.ts";

beforeAll(launchBrowser);
afterAll(closeBrowser);

const bar = (page: Page) => page.getByTestId("action-bar");

describe("the action bar", () => {
  it("likes with JavaScript at once, switches to dislike, and keeps it after a reload (zh); the author alone sees dislikes", async () => {
    const writer = await newVisitor({ locale: "zh-CN" });
    await signInAsNewUser(writer.context);
    const article = await publishArticle(writer.context, uniqueName("Reactions "));
    const reader = await newVisitor({ locale: "zh-CN" });
    await signInAsNewUser(reader.context);
    const { page } = reader;
    await page.goto(article);
    await hydrated(page);
    const like = bar(page).getByTestId("like");
    const dislike = bar(page).getByTestId("dislike");
    await expect.poll(() => like.textContent()).toMatch(/赞同\s*0/);
    const url = page.url();
    await like.click();
    await expect.poll(() => like.getAttribute("aria-pressed")).toBe("true");
    await expect.poll(() => like.textContent()).toMatch(/赞同\s*1/);
    // No navigation happened: the fetcher did the work.
    expect(page.url()).toBe(url);
    await dislike.click();
    await expect.poll(() => dislike.getAttribute("aria-pressed")).toBe("true");
    await expect.poll(() => like.textContent()).toMatch(/赞同\s*0/);
    // Readers never see a dislike count.
    expect(await dislike.locator(".action-count").count()).toBe(0);
    await page.reload();
    await expect.poll(() => bar(page).getByTestId("dislike").getAttribute("aria-pressed")).toBe("true");

    await writer.page.goto(article);
    await expect.poll(() => bar(writer.page).getByTestId("dislike").textContent()).toMatch(/反对\s*1/);
    await writer.context.close();
    await reader.context.close();
  });

  it("without JavaScript, a like is a form post that comes back to the page (en), and a visitor is sent to sign in", async () => {
    const writer = await newVisitor({ locale: "en" });
    await signInAsNewUser(writer.context);
    const article = `/en${await publishArticle(writer.context, uniqueName("No script "))}`;
    const reader = await newVisitor({ locale: "en", javaScriptEnabled: false });
    await signInAsNewUser(reader.context);
    await reader.page.goto(article);
    await bar(reader.page).getByTestId("like").click();
    await reader.page.waitForURL((url) => url.pathname === article && url.hash === "#actions");
    expect(await bar(reader.page).getByTestId("like").getAttribute("aria-pressed")).toBe("true");
    expect(await bar(reader.page).getByTestId("like").textContent()).toMatch(/Like\s*1/);

    const visitor = await newVisitor({ locale: "en" });
    await visitor.page.goto(article);
    await bar(visitor.page).getByTestId("like").click();
    await visitor.page.waitForURL((url) => url.pathname === "/en/login");
    expect(new URL(visitor.page.url()).searchParams.get("next")).toBe(article.slice(3));
    for (const context of [writer.context, reader.context, visitor.context]) await context.close();
  });

  it("shares: copies the link, shows Copied for 1.5 s and counts the share; the QR code and the link work without JavaScript (en)", async () => {
    const writer = await newVisitor({ locale: "zh-CN" });
    await signInAsNewUser(writer.context);
    const article = await publishArticle(writer.context, uniqueName("Share "));
    const reader = await newVisitor({ locale: "zh-CN" });
    await reader.context.grantPermissions(["clipboard-read", "clipboard-write"]);
    const { page } = reader;
    await page.goto(article);
    await hydrated(page);
    const panel = page.getByTestId("share");
    await panel.locator("summary").click();
    const copy = panel.getByTestId("copy-link");
    await copy.click();
    await expect.poll(() => copy.textContent()).toBe("已复制");
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(new URL(article, page.url()).href);
    await expect.poll(() => panel.locator("summary .action-count").textContent()).toBe("1");
    // Back to "copy" after 1.5 s.
    await expect.poll(() => copy.textContent(), { timeout: 5_000 }).toBe("复制链接");

    const plain = await newVisitor({ locale: "en", javaScriptEnabled: false });
    await plain.page.goto(`/en${article}`);
    const plainPanel = plain.page.getByTestId("share");
    await plainPanel.locator("summary").click();
    expect(await plainPanel.getByTestId("copy-link").count()).toBe(0);
    expect(await plainPanel.locator("input").inputValue()).toBe(`/en${article}`);
    const qr = await plain.page.request.get(`/api/qr.svg?path=${encodeURIComponent(`/en${article}`)}`);
    expect(qr.status()).toBe(200);
    expect(await plainPanel.locator("img").getAttribute("alt")).toBe("QR code of this page's link");
    for (const context of [writer.context, reader.context, plain.context]) await context.close();
  });
});
