import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseURL, closeBrowser, launchBrowser, newVisitor, submitLogin } from "./browser.ts";
import { wholeSitemap } from "../support/sitemap.ts";

beforeAll(launchBrowser);
afterAll(closeBrowser);

describe("home", () => {
  it("switches tabs by link, with the demo writings on Hot (zh) and a login prompt on Follow (en)", async () => {
    const { context, page } = await newVisitor();
    await page.goto("/");
    await page.getByRole("link", { name: "热门" }).click();
    await page.waitForURL((url) => url.search === "?tab=hot");
    await expect.poll(() => page.getByRole("link", { name: "热门" }).getAttribute("aria-current")).toBe("page");
    // The embedded store's demo writings fill the feed.
    expect(await page.getByTestId("feed-list").isVisible()).toBe(true);
    expect(await page.locator(".feed-card").count()).toBeGreaterThanOrEqual(5);
    await page.goto("/en?tab=follow");
    expect(await page.getByText("Log in to see what the people and circles you follow publish.").isVisible()).toBe(true);
    await context.close();
  });
});

describe("circles", () => {
  it("shows the top levels of the tree, opens a branch, and opens a circle by client-side navigation", async () => {
    const { context, page } = await newVisitor();
    await page.goto("/circles");
    // The root and its six seeded children (and any public circle other browser tests of this run
    // created under the root); Literature's four sub-circles wait behind a link.
    expect(await page.locator(".circle-tree-item").count()).toBeGreaterThanOrEqual(7);
    expect(await page.getByRole("link", { name: "诗歌", exact: true }).count()).toBe(0);
    await page.getByRole("link", { name: "展开文学的 4 个子圈子" }).click();
    await page.waitForURL((url) => url.pathname === "/circles" && url.searchParams.get("open") === "3");
    // Poetry sits inside Literature's own list, not beside it (the innermost matching <li> comes last).
    // The URL changes before the branch's data has arrived: wait for it to show.
    const literature = page.locator("li", { has: page.getByRole("link", { name: "文学", exact: true }) }).last();
    await expect.poll(() => literature.getByRole("link", { name: "诗歌", exact: true }).count()).toBe(1);
    const mathematics = page.locator("li", { has: page.getByRole("link", { name: "数学", exact: true }) }).last();
    expect(await mathematics.getByRole("link", { name: "诗歌", exact: true }).count()).toBe(0);
    await page.getByRole("link", { name: "诗歌", exact: true }).click();
    await page.waitForURL((url) => url.pathname === "/circles/4");
    await expect.poll(() => page.locator("h1").textContent()).toBe("诗歌");
    expect(await page.locator(".breadcrumb").textContent()).toBe("圈子地球村文学诗歌");
    expect(await page.getByText("这个圈子还没有子圈子。").isVisible()).toBe(true);
    await context.close();
  });

  it.each([
    ["/circles", "全部圈子 - 圈子"],
    ["/en/circles", "All circles - Circles"],
  ])("%s names itself once, and draws every circle's logo as an SVG, never an emoji", async (path, title) => {
    // Literature's branch open (circle 3): every seeded circle is on the page.
    const html = await (await fetch(`${baseURL()}${path}?open=3`)).text();
    expect(html).toContain(`<title>${title}</title>`);
    const logos = [...html.matchAll(/<(?:img|span) class="circle-logo[^"]*"[^>]*>(?:[^<]*<\/span>)?/g)].map(([markup]) => markup);
    // Other browser tests of this run may have added circles: letters or uploaded pictures.
    expect(logos.length).toBeGreaterThanOrEqual(11);
    expect(logos.filter((logo) => /\p{Extended_Pictographic}/u.test(logo))).toEqual([]);
    const sources = logos.map((logo) => /src="([^"]+)"/.exec(logo)?.[1]).filter((source) => source?.startsWith("/circle-logos/"));
    // Each seeded circle has its own drawing.
    expect(sources).toHaveLength(11);
    for (const source of sources) {
      expect(source).toMatch(/^\/circle-logos\/[a-z-]+\.svg$/);
      const response = await fetch(`${baseURL()}${source}`);
      expect(response.status, source).toBe(200);
      expect(response.headers.get("content-type")).toContain("image/svg+xml");
      expect(await response.text()).not.toMatch(/\p{Extended_Pictographic}|<text/u);
    }
  });

  it.each(["/circles/999999", "/en/circles/abc"])("%s is a 404", async (path) => {
    const response = await fetch(`${baseURL()}${path}`);
    expect(response.status).toBe(404);
  });
});

describe("search", () => {
  it("finds circles from the header box in both languages, and says so when nothing matches", async () => {
    const { context, page } = await newVisitor();
    await page.goto("/");
    await page.getByRole("searchbox", { name: "搜索" }).first().fill("数学");
    await page.keyboard.press("Enter");
    await page.waitForURL((url) => url.pathname === "/search" && url.searchParams.get("q") === "数学");
    await expect.poll(() => page.locator(".search-result-title").allTextContents()).toContain("数学");
    await page.goto("/en/search?q=Poetry&type=circle");
    expect(await page.locator(".search-result-title").allTextContents()).toContain("Poetry");
    await page.goto("/en/search?q=zzzz");
    expect(await page.getByText("Nothing matches “zzzz”.").isVisible()).toBe(true);
    await context.close();
  });
});

describe("information pages", () => {
  const pages = ["/about", "/about/privacy", "/help", "/app", "/app/download"];
  it.each(pages.flatMap((path) => [path, `/en${path}`]))("%s answers in its language", async (path) => {
    const { context, page } = await newVisitor();
    const response = await page.goto(path);
    expect(response?.status()).toBe(200);
    const english = path.startsWith("/en");
    expect(await page.getAttribute("html", "lang")).toBe(english ? "en" : "zh-CN");
    expect(await page.title()).toMatch(english ? / - Circles$/ : / - 圈子$/);
    expect(await page.locator("h1").count()).toBe(1);
    await context.close();
  });

  it("lists public pages of both languages in the sitemap", async () => {
    const response = await fetch(`${baseURL()}/sitemap.xml`);
    expect(response.headers.get("content-type")).toContain("application/xml");
    const index = await response.text();
    expect(index).toContain("<sitemapindex");
    expect(index).toContain(`<loc>${baseURL()}/sitemap/pages-1.xml</loc>`);
    const xml = await wholeSitemap(async (path) => (await fetch(`${baseURL()}${path}`)).text());
    expect(xml).toContain(`<loc>${baseURL()}/en/circles/1</loc>`);
    expect(xml).toContain(`<loc>${baseURL()}/circles/3</loc>`);
    const english = await fetch(`${baseURL()}/en/sitemap.xml`);
    expect(english.status).toBe(200);
    // The same document; a test file running beside this one may publish in between, so compare again then.
    await expect
      .poll(
        async () =>
          (await (await fetch(`${baseURL()}/en/sitemap.xml`)).text()) === (await (await fetch(`${baseURL()}/sitemap.xml`)).text()),
      )
      .toBe(true);
  });

  it("never builds a cached sitemap from another visitor's Host header", async () => {
    const { request } = await import("node:http");
    const poisoned = await new Promise<string>((resolve, reject) => {
      const call = request(`${baseURL()}/sitemap.xml?host-test`, { headers: { host: "evil.example" } }, (response) => {
        let body = "";
        response.on("data", (chunk: Buffer) => (body += chunk.toString()));
        response.on("end", () => resolve(body));
      });
      call.on("error", reject);
      call.end();
    });
    expect(poisoned).toContain("http://evil.example/sitemap/");
    const next = await (await fetch(`${baseURL()}/sitemap.xml?host-test`)).text();
    expect(next).not.toContain("evil.example");
  });

  it("matches paths case-sensitively: /EN/about and /ABOUT are 404s, not duplicates", async () => {
    for (const path of ["/EN/about", "/En", "/ABOUT", "/en/CIRCLES"]) {
      expect((await fetch(`${baseURL()}${path}`, { redirect: "manual" })).status, path).toBe(404);
    }
  });
});

describe("monetization", () => {
  it("sends a VIP user to the monetization home", async () => {
    const { context, page } = await newVisitor();
    await page.goto("/login");
    await submitLogin(page, "creator", "creator123");
    await page.waitForURL((url) => url.pathname === "/");
    await page.goto("/monetization");
    expect(new URL(page.url()).pathname).toBe("/monetization/home");
    await context.close();
  });
});

describe("fonts", () => {
  it("sets text, buttons and radio labels in one stack, Latin families before CJK ones", async () => {
    const { context, page } = await newVisitor({ locale: "en" });
    await page.goto("/en/register");
    const family = (selector: string) =>
      page
        .locator(selector)
        .first()
        .evaluate((element) => getComputedStyle(element).fontFamily);
    const body = await family("body");
    expect(await family("main button.ant-btn")).toBe(body);
    expect(await family(".site-header .button")).toBe(body);
    expect(await family(".ant-radio-wrapper")).toBe(body);
    expect(await family("#register-username")).toBe(body);
    const families = body.split(",").map((name) => name.trim().replace(/^["']|["']$/g, ""));
    const cjk = (name: string) => /CJK|PingFang|Hiragino|YaHei|Source Han|SimSun|SimHei|Heiti|WenQuanYi/i.test(name);
    expect(cjk(families[0]!)).toBe(false);
    const firstCjk = families.findIndex(cjk);
    expect(firstCjk).toBeGreaterThan(0);
    expect(families.slice(firstCjk).filter((name) => !cjk(name) && !/sans-serif|emoji/i.test(name))).toEqual([]);
    // English curly quotes take a Latin glyph, not a full-width CJK one.
    const quoteWidth = await page.evaluate(() => {
      const probe = document.createElement("span");
      probe.textContent = "“";
      probe.style.fontSize = "100px";
      document.body.append(probe);
      return probe.getBoundingClientRect().width;
    });
    expect(quoteWidth).toBeLessThan(70);
    await context.close();
  });
});

describe("dark colour scheme", () => {
  it("applies before any script runs", async () => {
    const { context, page } = await newVisitor({ colorScheme: "dark", javaScriptEnabled: false });
    await page.goto("/en/circles");
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe("rgb(20, 20, 20)");
    await context.close();
  });
});

describe("malformed page requests", () => {
  it.each([
    ["POST", "/login", "application/json", '{"username":"demo"}'],
    ["POST", "/en/register", "application/x-www-form-urlencoded", "%%%\u00ff"],
    ["POST", "/logout", "text/plain", "x"],
    ["PUT", "/circles", "application/x-www-form-urlencoded", "a=1"],
    ["GET", "/circles/%E0%A4%A", undefined, undefined],
    ["GET", "/search?q=%25_%5C", undefined, undefined],
    ["GET", "/search?q=a%00b", undefined, undefined],
    ["POST", "/en/login", "application/x-www-form-urlencoded", "username=a%00%40x.com&password=x"],
    ["GET", "/set-language?lang=en&next=/%0d%0a", undefined, undefined],
    ["GET", "/set-language?lang=en&next=/%E6%95%B0", undefined, undefined],
    ["GET", "/en/%", undefined, undefined],
    ["GET", "/api/%ff", undefined, undefined],
  ])("%s %s answers 4xx or a page, never 5xx", async (method, path, type, body) => {
    const response = await fetch(`${baseURL()}${path}`, {
      method,
      headers: type ? { "content-type": type } : {},
      body,
      redirect: "manual",
    });
    expect(response.status).toBeLessThan(500);
  });

  it("answers another method on an API path with 405 and Allow on the real server", async () => {
    const response = await fetch(`${baseURL()}/api/Users/LoginAuth/`, { method: "DELETE" });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("GET, HEAD");
    expect(((await response.json()) as { code: string }).code).toBe("method_not_allowed");
  });
});
