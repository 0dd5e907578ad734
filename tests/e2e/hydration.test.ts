import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseURL, closeBrowser, launchBrowser, newVisitor } from "./browser.ts";
import { wholeSitemap } from "../support/sitemap.ts";

/**
 * Every kind of public page in the sitemap, once per language: the page a browser hydrates must
 * say exactly what the server sent (a text only the server has, such as a catalog the browser
 * never loaded, shows as a raw key after hydration and makes React throw away the server's HTML).
 */
async function onePagePerShape(): Promise<string[]> {
  const sitemap = await wholeSitemap(async (path) => (await fetch(`${baseURL()}${path}`)).text());
  const paths = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => new URL(match[1]!).pathname);
  const byShape = new Map<string, string>();
  for (const path of paths) {
    const shape = path.replace(/\d+/g, "N");
    if (!byShape.has(shape)) byShape.set(shape, path);
  }
  // Sign-in forms are left out: their puzzle is dealt once the page runs.
  return [...byShape.values(), "/search?q=a", "/en/search?q=a", "/no-such-page", "/en/no-such-page"];
}

describe("hydration", () => {
  beforeAll(launchBrowser);
  afterAll(closeBrowser);

  it("keeps every public page as the server rendered it, in both languages, with no script error", async () => {
    const paths = await onePagePerShape();
    expect(paths.some((path) => /\/writing\/\d+$/.test(path))).toBe(true);
    expect(paths.some((path) => /\/books\/\d+$/.test(path))).toBe(true);
    const withoutScript = await newVisitor({ javaScriptEnabled: false });
    const withScript = await newVisitor();
    const errors: string[] = [];
    withScript.page.on("pageerror", (error) => errors.push(error.message));
    for (const path of paths) {
      const response = await withScript.page.goto(path, { waitUntil: "networkidle" });
      const hydrated = await withScript.page.evaluate(() => document.body.innerText);
      // The same bytes without scripts: another test file may change a shared page between two requests.
      const html = await response!.text();
      const pathname = new URL(path, baseURL()).pathname;
      const sameDocument = (url: URL) => url.pathname === pathname;
      await withoutScript.page.route(sameDocument, (route) =>
        route.fulfill({ status: response!.status(), contentType: "text/html; charset=utf-8", body: html }),
      );
      await withoutScript.page.goto(path);
      await withoutScript.page.unroute(sameDocument);
      const served = await withoutScript.page.evaluate(() => document.body.innerText);
      expect(hydrated, path).toBe(served);
      expect(errors, path).toEqual([]);
    }
    await withoutScript.context.close();
    await withScript.context.close();
    // Two loads per kind of page (about 2 s each on a busy machine): the time grows with every new kind.
  }, 180_000);
});
