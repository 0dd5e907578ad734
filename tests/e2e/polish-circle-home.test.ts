import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BrowserContext, Page } from "playwright-core";
import { baseURL, closeBrowser, launchBrowser, newVisitor, signInAsNewUser, uniqueName } from "./browser.ts";
import { addCatalog, translator } from "../../common/i18n.ts";
import { localizePath, type Locale } from "../../common/locale.ts";
import zhCircles from "../../common/locales/zh-CN/circles.json" with { type: "json" };
import enCircles from "../../common/locales/en/circles.json" with { type: "json" };

addCatalog("circles", { "zh-CN": zhCircles, en: enCircles });
import "../../app/lib/kinds-catalog.ts";

beforeAll(launchBrowser);
afterAll(closeBrowser);

/** Server round trips on a busy machine take a while. */
const eventually = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 20_000 });

/** The API as the signed-in browser context (its session cookie and a CSRF token). */
async function api(context: BrowserContext, method: "POST" | "PUT" | "DELETE", url: string, data?: unknown) {
  const { csrftoken } = (await (await context.request.get("/api/get_csrf_token/")).json()) as { csrftoken: string };
  const response = await context.request.fetch(url, { method, headers: { "x-csrftoken": csrftoken }, data });
  expect(response.status(), `${method} ${url}: ${await response.text()}`).toBeLessThan(300);
  return response.status() === 204 ? null : ((await response.json()) as Record<string, unknown>);
}

/** A new circle founded by a new user, with two articles and a book in it. */
async function circleWithContent(context: BrowserContext) {
  await signInAsNewUser(context);
  const created = (await api(context, "POST", "/api/circles/", {
    name: uniqueName("置顶圈"),
    description: "",
    visibility: "public",
    default_language: "zh-CN",
    languages: ["zh-CN", "en"],
  }))!;
  const circleId = created.id as number;
  const writing = async (title: string) =>
    (await api(context, "POST", `/api/circles/${circleId}/writings/`, { title, content: `${title} 的正文。` }))!.id as number;
  const first = await writing(uniqueName("第一篇"));
  const second = await writing(uniqueName("第二篇"));
  const book = (await api(context, "POST", `/api/circles/${circleId}/books/`, { name: uniqueName("一本书") }))!.id as number;
  return { circleId, first, second, book };
}

/** Fails when the page scrolls sideways. */
const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

describe("the circle page (zh-CN)", () => {
  const locale: Locale = "zh-CN";
  const t = translator(locale);
  const path = (to: string) => localizePath(to, locale);

  it("shows content first, lets the founder pin and unpin, and keeps people and sub-circles in the side column", async () => {
    const founder = await newVisitor({ locale });
    const { circleId, first, book } = await circleWithContent(founder.context);
    await founder.page.goto(path(`/circles/${circleId}`));

    // Content first: the content panel comes before the side column in the document and on screen.
    const content = founder.page.getByTestId("circle-content");
    const side = founder.page.locator("aside.circle-side");
    expect(
      await content.evaluate(
        (element, aside) => Boolean(element.compareDocumentPosition(aside!) & Node.DOCUMENT_POSITION_FOLLOWING),
        await side.elementHandle(),
      ),
    ).toBe(true);
    const [contentBox, sideBox] = [(await content.boundingBox())!, (await side.boundingBox())!];
    expect(sideBox.x).toBeGreaterThan(contentBox.x + contentBox.width - 1);
    expect(await side.locator(".staff-list").textContent()).toContain(t("circles:roles.founder"));
    expect(await side.locator(".circle-counts").textContent()).toContain(t("circles:counts.members", { count: 1 }));
    // The questions tab is there (questions and answers exist now).
    expect(await founder.page.getByRole("link", { name: t("kinds:tabs.questions"), exact: true }).count()).toBe(1);

    // Pin the first article: it is listed on top with its mark, for visitors too.
    await founder.page.getByTestId(`pin-writing-${first}`).click();
    await founder.page.getByText(t("circles:page.pinned_notice")).waitFor();
    const pinned = founder.page.getByTestId("pinned-list");
    await eventually(() => pinned.textContent()).toContain(t("circles:page.pinned_mark"));
    expect(await founder.page.getByTestId(`unpin-writing-${first}`).count()).toBeGreaterThan(0);

    // The book from its tab.
    await founder.page.goto(path(`/circles/${circleId}?tab=books`));
    await founder.page.getByTestId(`pin-book-${book}`).click();
    await founder.page.getByText(t("circles:page.pinned_notice")).waitFor();
    await eventually(() => founder.page.getByTestId("pinned-list").locator("li").count()).toBe(2);

    const visitor = await newVisitor({ locale });
    await visitor.page.goto(path(`/circles/${circleId}`));
    const visitorPins = visitor.page.getByTestId("pinned-list");
    await eventually(() => visitorPins.locator("li").count()).toBe(2);
    expect(await visitorPins.textContent()).toContain(t("circles:page.pinned_mark"));
    // Visitors get no pin buttons.
    expect(await visitor.page.locator(".pin-form").count()).toBe(0);

    // Latest / Hot order.
    await visitor.page.getByRole("link", { name: t("circles:page.sort_hot"), exact: true }).click();
    await visitor.page.waitForURL((url) => url.searchParams.get("sort") === "hot");
    await eventually(() =>
      visitor.page.getByRole("link", { name: t("circles:page.sort_hot"), exact: true }).getAttribute("aria-current"),
    ).toBe("true");

    // Unpin.
    await founder.page.goto(path(`/circles/${circleId}`));
    await founder.page.getByTestId("pinned-list").getByTestId(`unpin-writing-${first}`).click();
    await founder.page.getByText(t("circles:page.unpinned_notice")).waitFor();
    await eventually(() => founder.page.getByTestId("pinned-list").locator("li").count()).toBe(1);
    await founder.context.close();
    await visitor.context.close();
  });

  it("shows the seeded circles' founder, administrators and members", async () => {
    const { context, page } = await newVisitor({ locale });
    await page.goto(path("/circles/2"));
    expect(await page.locator("aside .staff-list").textContent()).toMatch(new RegExp(`${t("circles:roles.founder")}.*Creator`));
    expect(await page.locator("aside .staff-list").textContent()).toContain(t("circles:roles.admin"));
    expect(await page.locator("aside .circle-counts").textContent()).not.toContain(t("circles:counts.members", { count: 0 }));
    await context.close();
  });

  it("puts the side column below the content on a phone, without sideways scrolling, in both languages", async () => {
    for (const phoneLocale of ["zh-CN", "en"] as const) {
      const { context, page } = await newVisitor({ locale: phoneLocale, viewport: { width: 390, height: 844 } });
      for (const to of ["/circles/2", "/circles/2?tab=books", "/"]) {
        await page.goto(localizePath(to, phoneLocale));
        expect(await overflow(page), `${phoneLocale} ${to}`).toBe(0);
      }
      await page.goto(localizePath("/circles/2", phoneLocale));
      const content = (await page.getByTestId("circle-content").boundingBox())!;
      const side = (await page.locator("aside.circle-side").boundingBox())!;
      expect(side.y).toBeGreaterThanOrEqual(content.y + content.height);
      await context.close();
    }
  });
});

describe("the circle page (en, smoke)", () => {
  it("pins in English with the Pinned mark", async () => {
    const t = translator("en");
    const founder = await newVisitor({ locale: "en" });
    const { circleId, second } = await circleWithContent(founder.context);
    await founder.page.goto(`/en/circles/${circleId}`);
    await founder.page.getByTestId(`pin-writing-${second}`).click();
    await founder.page.getByText(t("circles:page.pinned_notice")).waitFor();
    await eventually(() => founder.page.getByTestId("pinned-list").textContent()).toContain("Pinned");
    await founder.context.close();
  });
});

describe("home", () => {
  it("shows feed cards with author, circle, counts and the seeded book's chapters; visitors get a sign-in prompt and popular circles (zh)", async () => {
    const t = translator("zh-CN");
    const { context, page } = await newVisitor({ locale: "zh-CN" });
    await page.goto("/?tab=all");
    const cards = page.locator(".feed-card");
    expect(await cards.count()).toBeGreaterThanOrEqual(5);
    const article = cards.filter({ has: page.locator('a[href*="/writing/"]') }).first();
    expect(await article.locator(".feed-avatar").count()).toBe(1);
    expect(await article.locator(".feed-author").textContent()).toBeTruthy();
    expect(await article.locator(".feed-circle").getAttribute("href")).toMatch(/^\/circles\/\d+$/);
    expect(await article.locator(".feed-card-counts").textContent()).toMatch(/\d+ 次?阅读.*\d+ 评论/);
    // The demo book and its chapters are in the feed, as one card listing the new chapters.
    expect(await page.locator('.feed-card[data-kind="book"]').count()).toBeGreaterThan(0);
    expect(await page.locator('.feed-card[data-kind="book"]').getByTestId("feed-chapters").count()).toBeGreaterThan(0);
    expect(
      await page
        .getByTestId("home-sign-in")
        .getByRole("link", { name: t("nav.login") })
        .count(),
    ).toBe(1);
    expect(await page.getByTestId("home-circles").textContent()).toContain(t("home.popular_circles"));
    expect(await page.getByTestId("home-circles").locator(".circle-card").count()).toBeGreaterThan(0);
    await context.close();
  });

  it("gives a signed-in reader the check-in button and their circles (en)", async () => {
    const t = translator("en");
    const { context, page } = await newVisitor({ locale: "en" });
    const { circleId } = await circleWithContent(context);
    await page.goto("/en");
    await page.getByTestId("checkin-button").waitFor();
    expect(await page.getByTestId("home-circles").textContent()).toContain(t("home.my_circles"));
    expect(await page.getByTestId("home-circles").locator(`a[href="/en/circles/${circleId}"]`).count()).toBe(1);
    await page.getByTestId("checkin-button").click();
    await eventually(() => page.getByTestId("checkin-button").textContent()).toBe(t("home.checkin_done"));
    await context.close();
  });
});

describe("security headers on cached pages", () => {
  it("gives three requests of a cached page three nonces, each the same in the CSP header and the inline scripts", async () => {
    const nonces = new Set<string>();
    for (let index = 0; index < 4; index++) {
      const response = await fetch(`${baseURL()}/en/about`, { headers: { "accept-encoding": index % 2 ? "gzip" : "identity" } });
      const header = /'nonce-([^']+)'/.exec(response.headers.get("content-security-policy") ?? "")?.[1];
      expect(header).toBeTruthy();
      const html = await response.text();
      const inline = [...html.matchAll(/<script nonce="([^"]+)"/g)].map((match) => match[1]);
      expect(inline.length).toBeGreaterThan(0);
      expect(new Set(inline)).toEqual(new Set([header]));
      // The first request may render (miss); the rest come from the cache.
      if (index > 0) expect(response.headers.get("x-page-cache")).toBe("hit");
      nonces.add(header!);
    }
    expect(nonces.size).toBe(4);
  });

  it("raises no CSP violation from zod on the category settings page and in the editor", async () => {
    const { context, page } = await newVisitor({ locale: "en" });
    const { circleId } = await circleWithContent(context);
    const violations: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error" && /Content Security Policy|unsafe-eval/i.test(message.text())) violations.push(message.text());
    });
    await page.exposeFunction("reportViolation", (text: string) => violations.push(text));
    await page.addInitScript(() => {
      document.addEventListener("securitypolicyviolation", (event) =>
        (window as unknown as { reportViolation: (text: string) => void }).reportViolation(
          `${event.violatedDirective} ${event.blockedURI}`,
        ),
      );
    });
    for (const to of [`/en/circles/${circleId}/settings/categories`, `/en/circles/${circleId}/write/article`]) {
      await page.goto(to);
      await page.waitForFunction(() => {
        const heading = document.querySelector("h1");
        return heading !== null && Object.keys(heading).some((key) => key.startsWith("__reactFiber"));
      });
      // Type into the first text field so forms validate with zod.
      await page.locator("input[type=text], input:not([type])").first().fill("x");
      await page.waitForTimeout(500);
    }
    expect(violations).toEqual([]);
    await context.close();
  });
});
