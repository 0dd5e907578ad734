import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BrowserContext, Locator, Page } from "playwright-core";
import { closeBrowser, hydrated, launchBrowser, newVisitor, seriousViolations, signInAsNewUser, uniqueName } from "./browser.ts";

beforeAll(launchBrowser);
afterAll(closeBrowser);

const poll = <T>(read: () => Promise<T>, timeout = 20_000) => expect.poll(read, { timeout });

/** A signed-in request with the CSRF header, as the pages' own scripts send it. */
async function apiPost(context: BrowserContext, path: string, data: unknown) {
  const { csrftoken } = (await (await context.request.get("/api/get_csrf_token/")).json()) as { csrftoken: string };
  const response = await context.request.post(path, { headers: { "x-csrftoken": csrftoken }, data: data as Record<string, unknown> });
  expect(response.status(), await response.text()).toBeLessThan(300);
  return response.json() as Promise<Record<string, unknown>>;
}

/** The word a copy button shows (drawn by CSS, so the page's text stays the server's). */
const shown = (button: Locator) => button.evaluate((element) => getComputedStyle(element, "::after").content.replace(/^"|"$/g, ""));

/** How far the page scrolls sideways (0 when it fits the window). */
const sidewaysOverflow = (page: Page) => page.evaluate(() => document.scrollingElement!.scrollWidth - window.innerWidth);

describe("phones: no page scrolls sideways at 390 px", () => {
  // Every page shape: lists, circle pages and their settings, reading pages, the account pages,
  // the message centre, the editors. The demo content (seeded at start) gives the writing, book,
  // chapter and entry; the signed-in visitor founds a circle of their own for its settings.
  const shapes = (circleId: number, username: string) => [
    "/",
    "/circles",
    `/circles/${circleId}`,
    "/circles/2",
    "/circles/2?tab=posts",
    "/circles/2?tab=encyclopedia",
    "/circles/2/posts",
    "/circles/2/writing/1",
    "/circles/2/books/1",
    "/circles/2/books/1/chapters/3",
    "/circles/2/encyclopedia/1",
    "/profile/creator",
    `/profile/${username}`,
    "/search?q=数学",
    "/login",
    "/register",
    "/forget_password",
    `/circles/${circleId}/settings`,
    `/circles/${circleId}/settings/members`,
    `/circles/${circleId}/settings/categories`,
    `/circles/${circleId}/settings/i18n`,
    "/circles/new",
    "/messages",
    "/messages/like_attention",
    "/account/home",
    "/account/profile",
    "/account/avatar",
    "/account/store",
    "/account/missions",
    "/account/drafts",
    "/creator",
    "/creator/manage/content",
    "/creator/manage/comment",
    `/circles/${circleId}/write/article`,
    `/circles/${circleId}/post`,
    `/circles/${circleId}/write/book`,
    "/about",
    "/help/formatting",
  ];

  it("every page shape fits in both languages, and tab rows scroll inside themselves", async () => {
    const { context, page } = await newVisitor({ viewport: { width: 390, height: 844 } });
    const account = await signInAsNewUser(context);
    const circle = await apiPost(context, "/api/circles/", {
      name: uniqueName("手机圈"),
      description: "A circle with both languages, so its tab row is at its widest.",
      languages: ["zh-CN", "en"],
    });
    const overflowing: string[] = [];
    for (const prefix of ["", "/en"]) {
      for (const shape of shapes(circle.id as number, account.username)) {
        const path = prefix + (shape === "/" && prefix ? "" : shape);
        const response = await page.goto(path);
        expect(response?.status(), path).toBeLessThan(400);
        await page.waitForLoadState("load");
        const over = await sidewaysOverflow(page);
        if (over > 0) overflowing.push(`${path} by ${over} px`);
      }
    }
    expect(overflowing).toEqual([]);
    // The circle's tab row is wider than the phone in English: it scrolls, the page does not.
    await page.goto("/en/circles/2");
    const tabs = page.locator("nav.tabs-nav").first();
    const { scroll, client, overflowX } = await tabs.evaluate((nav) => ({
      scroll: nav.scrollWidth,
      client: nav.clientWidth,
      overflowX: getComputedStyle(nav).overflowX,
    }));
    expect(overflowX).toBe("auto");
    expect(client).toBeLessThanOrEqual(390);
    expect(scroll).toBeGreaterThanOrEqual(client);
    await context.close();
  }, 300_000);
});

describe("code blocks", () => {
  it("carry their language label, and a copy button that says copied for 1.5 s (zh) or Copy/Copied (en)", async () => {
    const { context, page } = await newVisitor();
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    await page.goto("/circles/2/writing/1");
    // The copy button works once the page's script runs: a click before hydration would be lost.
    await hydrated(page);
    const block = page.locator(".rendered-content pre.shiki").first();
    expect(await block.evaluate((pre) => getComputedStyle(pre, "::before").content)).toBe('"Python"');
    const button = page.locator(".rendered-content .code-block .code-copy").first();
    await poll(() => shown(button)).toBe("复制");
    await button.click();
    const copiedAt = Date.now();
    await poll(() => shown(button), 1_000).toBe("已复制");
    expect(await button.getAttribute("aria-label")).toBe("已复制");
    expect(await page.locator(".rendered-content .code-block [role=status]").first().textContent()).toBe("已复制");
    const code = await block.locator("code").textContent();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(code);
    expect(code).toContain("for a in range(1, 30):");
    await poll(() => shown(button), 3_000).toBe("复制");
    expect(Date.now() - copiedAt).toBeGreaterThanOrEqual(1_300);

    await page.goto("/en/circles/2/writing/1");
    await hydrated(page);
    const english = page.locator(".rendered-content .code-copy").first();
    await poll(() => shown(english)).toBe("Copy");
    await english.click();
    await poll(() => shown(english), 1_000).toBe("Copied");
    await context.close();
  });

  it("show no copy button without JavaScript, but keep the label", async () => {
    const { context, page } = await newVisitor({ javaScriptEnabled: false });
    await page.goto("/en/circles/2/writing/1");
    expect(await page.locator(".rendered-content pre.shiki").count()).toBeGreaterThan(0);
    expect(await page.locator(".code-copy").count()).toBe(0);
    expect(
      await page
        .locator(".rendered-content pre.shiki")
        .first()
        .evaluate((pre) => getComputedStyle(pre, "::before").content),
    ).toBe('"Python"');
    await context.close();
  });
});

describe("dark mode and the header", () => {
  it("highlighted code and the profile's activity pass axe in dark mode (contrast, links in text)", async () => {
    const { context, page } = await newVisitor({ colorScheme: "dark", locale: "en", bypassCSP: true });
    await signInAsNewUser(context);
    const code =
      "```python\n# A comment that must stay readable\ndef area(width, height):\n    return width * height  # in square metres\n```";
    const writing = await apiPost(context, "/api/circles/1/writings/", { title: uniqueName("Dark code "), content: code, language: "en" });
    await page.goto(`/en${writing.url as string}`);
    await page.locator(".rendered-content .code-copy").first().waitFor();
    const comment = page.locator('.rendered-content .shiki span[style*="--shiki-dark:#6A737D" i]').first();
    expect(await comment.textContent()).toContain("# A comment");
    expect(await comment.evaluate((span) => getComputedStyle(span).color)).toBe("rgb(149, 157, 165)");
    expect(await seriousViolations(page)).toEqual([]);

    await page.goto("/en/profile/creator?tab=activity");
    const link = page.locator("[data-testid=activity-list] a").first();
    await link.waitFor();
    expect(await link.evaluate((a) => getComputedStyle(a).textDecorationLine)).toBe("underline");
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  });

  it("the search's clear button sits beside the magnifier, and unread badges centre their number", async () => {
    const { context: star, page } = await newVisitor();
    const starAccount = await signInAsNewUser(star);
    const { context: fan } = await newVisitor();
    await signInAsNewUser(fan);
    await apiPost(fan, `/api/Users/follow/${starAccount.username}/`, {});

    await page.goto("/");
    const input = page.locator(".site-search-input");
    await input.fill("数学");
    const magnifier = await page.locator(".site-search-button").boundingBox();
    const contentRight = await input.evaluate((field) => {
      const box = field.getBoundingClientRect();
      const style = getComputedStyle(field);
      return box.right - parseFloat(style.paddingRight) - parseFloat(style.borderRightWidth);
    });
    // The browser's clear button is drawn at the end of the content box.
    expect(contentRight).toBeLessThanOrEqual(magnifier!.x);

    const centred = async (selector: string) =>
      page
        .locator(selector)
        .first()
        .evaluate((badge) => {
          const range = document.createRange();
          range.selectNodeContents(badge);
          const text = range.getBoundingClientRect();
          const box = badge.getBoundingClientRect();
          return {
            dx: Math.abs(text.left + text.width / 2 - (box.left + box.width / 2)),
            dy: Math.abs(text.top + text.height / 2 - (box.top + box.height / 2)),
          };
        });
    await poll(() => page.locator("[data-testid=unread-total]").count()).toBe(1);
    const bell = await centred("[data-testid=unread-total]");
    expect(bell.dx).toBeLessThanOrEqual(1);
    expect(bell.dy).toBeLessThanOrEqual(1.5);
    // Another category's page, so the follow stays unread in the centre's list.
    await page.goto("/messages/system_notice");
    await poll(() => page.locator(".message-count").count()).toBeGreaterThan(0);
    const badge = await centred(".message-count");
    const pill = await page.locator(".message-count").first().boundingBox();
    expect(pill!.height).toBe(20);
    expect(pill!.width).toBeGreaterThanOrEqual(20);
    expect(badge.dx).toBeLessThanOrEqual(1);
    expect(badge.dy).toBeLessThanOrEqual(1.5);
    await star.close();
    await fan.close();
  });
});

describe("reading in the interface language", () => {
  it("opens the English version from an English link, lists English titles and rendered excerpts, and counts entry citations", async () => {
    const { context, page } = await newVisitor({ locale: "en" });
    await page.goto("/en/circles/2/writing/1");
    await poll(() => page.locator("h1.writing-title").innerText()).toContain("Three proofs of the Pythagorean theorem");
    await page.getByTestId("language-zh-CN").click();
    await poll(() => page.locator("h1.writing-title").innerText()).toContain("勾股定理的三种证明");

    for (const path of ["/en?tab=all", "/?tab=all"]) {
      await page.goto(path);
      const excerpts = await page.locator(".feed-card-excerpt").allInnerTexts();
      expect(excerpts.length, path).toBeGreaterThan(0);
      for (const excerpt of excerpts) expect(excerpt, path).not.toMatch(/\\[a-zA-Z]+|[_^]\{/);
    }
    // A list in /en shows the English title (the Mathematics circle's articles: the home feed's first
    // page moves as other test files publish).
    await page.goto("/en/circles/2");
    expect(await page.locator("main").innerText()).toContain("Three proofs of the Pythagorean theorem");

    // The demo writing relates to the entry 勾股定理: its page says so.
    await page.goto("/circles/2?tab=encyclopedia");
    await page.getByRole("link", { name: "勾股定理", exact: true }).first().click();
    await poll(() => page.getByTestId("entry").innerText()).toMatch(/[1-9]\d* 次引用/);
    await context.close();
  });
});
