import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeBrowser, hydrated, launchBrowser, newVisitor, signInAsNewUser, uniqueName } from "./browser.ts";

beforeAll(launchBrowser);
afterAll(closeBrowser);

const eventually = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 30_000 });

describe("search in the browser", () => {
  it("suggests in the header as one types, opens the pick, filters results by type and opens one (zh), and shows the English search page", async () => {
    const token = uniqueName("xq");
    const { context, page } = await newVisitor();
    await signInAsNewUser(context);
    const { csrftoken } = (await (await context.request.get("/api/get_csrf_token/")).json()) as { csrftoken: string };
    const title = `星际航行手册 ${token}`;
    const published = await context.request.post("/api/circles/1/writings/", {
      headers: { "x-csrftoken": csrftoken },
      data: { title, content: "关于曲率引擎与星际航行的设想。" },
    });
    expect(published.status()).toBe(201);
    const { id } = (await published.json()) as { id: number };

    // The header's box suggests the new article on the next request; picking it opens the article.
    await page.goto("/ranking");
    await hydrated(page);
    await page.locator(".site-search-input").click();
    await page.keyboard.type(token);
    const option = page.locator(".site-search-option", { hasText: title });
    await option.waitFor({ timeout: 30_000 });
    await option.click();
    await page.waitForURL(new RegExp(`/circles/1/writing/${id}$`));

    // The results page: the article under "文章", none under "书籍"; a result opens its page.
    await page.goto(`/search?q=${encodeURIComponent(`星际航行 ${token}`)}`);
    await hydrated(page);
    await page.locator('.tabs-nav a[data-type="book"]').click();
    await page.waitForURL(/type=book/);
    await eventually(() => page.locator(".search-result").count()).toBe(0);
    await page.locator('.tabs-nav a[data-type="writing"]').click();
    await page.waitForURL(/type=writing/);
    await eventually(() => page.locator(".search-result-title").allTextContents()).toEqual([title]);
    expect(await page.locator(".search-result-snippet mark").allTextContents()).toEqual(expect.arrayContaining(["星际", "航行"]));
    await page.locator(".search-result-title a").click();
    await page.waitForURL(new RegExp(`/circles/1/writing/${id}$`));

    // English: the same search under /en, its tabs in English and the link localized.
    await page.goto(`/en/search?q=${encodeURIComponent(token)}`);
    expect(await page.locator('.tabs-nav a[data-type="writing"]').textContent()).toBe("Articles");
    expect(await page.locator(".search-result-title a").getAttribute("href")).toBe(`/en/circles/1/writing/${id}`);
    await context.close();
  });

  it("finds by pinyin on the results page what the header suggests, and closes the suggestions after Enter", async () => {
    const token = uniqueName("gg");
    const { context, page } = await newVisitor();
    await signInAsNewUser(context);
    const { csrftoken } = (await (await context.request.get("/api/get_csrf_token/")).json()) as { csrftoken: string };
    const title = `勾股定理的证明 ${token}`;
    const published = await context.request.post("/api/circles/1/writings/", {
      headers: { "x-csrftoken": csrftoken },
      data: { title, content: "直角三角形两直角边的平方和等于斜边的平方。" },
    });
    expect(published.status()).toBe(201);

    await page.goto("/ranking");
    await hydrated(page);
    await page.locator(".site-search-input").click();
    // The pinyin last, as one types it: the suggestions take the last word as a prefix.
    await page.keyboard.type(`${token} gougu`);
    await page.locator(".site-search-option", { hasText: title }).waitFor({ timeout: 30_000 });
    await page.keyboard.press("Enter");
    await page.waitForURL(/\/search\?q=.*gougu/);
    await eventually(() => page.locator(".search-result-title").allTextContents()).toEqual([title]);
    await eventually(() => page.locator(".site-search-suggestions").count()).toBe(0);
    // An answer that was still on its way does not open the list again.
    await page.waitForTimeout(600);
    expect(await page.locator(".site-search-suggestions").count()).toBe(0);
    await context.close();
  });
});
