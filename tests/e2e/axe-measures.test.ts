import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseURL, closeBrowser, launchBrowser, newVisitor, seriousViolations, signInAsNewUser } from "./browser.ts";

beforeAll(launchBrowser);
afterAll(closeBrowser);

/** The demo article with math (a seeded writing among the first ids). */
async function demoArticle(): Promise<string> {
  for (let id = 1; id <= 30; id++) {
    const response = await fetch(`${baseURL()}/circles/1/writing/${id}`);
    if (response.ok && (await response.text()).includes('class="katex"')) return new URL(response.url).pathname;
  }
  throw new Error("no demo article with math");
}

/**
 * The page types the public axe runs (axe-pages.ts) leave out, signed in: the article, an entry's
 * history, the wallet, top-up, shop, messages, chat, creator centre and account pages, each in
 * both languages, light and dark, with no serious or critical axe finding and no page wider than a
 * 390 px phone.
 */
describe("the signed-in page types, measured", () => {
  it("have no serious or critical axe finding in both languages, light and dark, and none is wider than a phone", async () => {
    const article = await demoArticle();
    const paths = [
      article,
      "/circles/2/encyclopedia/2/history",
      "/wallet",
      "/wallet/sinecoin_recharge",
      "/shop",
      "/messages/like_attention",
      "/messages/chat/demo",
      "/creator",
      "/account/home",
    ];
    const found: string[] = [];
    for (const colorScheme of ["light", "dark"] as const) {
      for (const [prefix, locale] of [
        ["", "zh-CN"],
        ["/en", "en"],
      ] as const) {
        const { context, page } = await newVisitor({ colorScheme, locale, bypassCSP: true });
        await signInAsNewUser(context);
        for (const path of paths) {
          await page.goto(`${prefix}${path}`);
          for (const violation of await seriousViolations(page)) found.push(`${prefix}${path} (${colorScheme}): ${violation}`);
        }
        await context.close();
      }
    }
    for (const [prefix, locale] of [
      ["", "zh-CN"],
      ["/en", "en"],
    ] as const) {
      const { context, page } = await newVisitor({ locale, viewport: { width: 390, height: 844 } });
      await signInAsNewUser(context);
      for (const path of paths) {
        await page.goto(`${prefix}${path}`);
        const overflow = await page.evaluate(() => document.scrollingElement!.scrollWidth - window.innerWidth);
        if (overflow > 0) found.push(`${prefix}${path}: ${overflow} px wider than a 390 px phone`);
      }
      await context.close();
    }
    expect(found).toEqual([]);
  }, 300_000);
});
