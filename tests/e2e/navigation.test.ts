import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseURL, closeBrowser, launchBrowser, newVisitor, submitLogin } from "./browser.ts";

beforeAll(launchBrowser);
afterAll(closeBrowser);

describe("language switch", () => {
  it("goes to the same page in the other language, remembers the choice, and / then redirects to /en", async () => {
    const { context, page } = await newVisitor();
    await page.goto("/circles/3");
    expect(await page.getAttribute("html", "lang")).toBe("zh-CN");
    expect(await page.locator("h1").textContent()).toBe("文学");
    await page.getByRole("link", { name: "English" }).click();
    await page.waitForURL((url) => url.pathname === "/en/circles/3");
    expect(await page.getAttribute("html", "lang")).toBe("en");
    expect(await page.locator("h1").textContent()).toBe("Literature");
    const cookie = (await context.cookies()).find((entry) => entry.name === "lang");
    expect(cookie?.value).toBe("en");
    expect((cookie!.expires * 1000 - Date.now()) / 86_400_000).toBeGreaterThan(364);
    await page.goto("/");
    expect(new URL(page.url()).pathname).toBe("/en");
    await page.getByRole("link", { name: "中文" }).click();
    await page.waitForURL((url) => url.pathname === "/");
    expect(await page.getAttribute("html", "lang")).toBe("zh-CN");
    await context.close();
  });
});

describe("in-app navigation in English", () => {
  /** Marks the document, so a full page load (which drops the mark) can be told from client navigation. */
  const markDocument = async (page: import("playwright-core").Page) => {
    await page.waitForLoadState("networkidle");
    await page.evaluate(() => ((window as unknown as { __sameDocument?: boolean }).__sameDocument = true));
  };
  const sameDocument = (page: import("playwright-core").Page) =>
    page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument === true);

  it("stays English on the way to /en and onwards: language, texts and titles", async () => {
    const { context, page } = await newVisitor();
    await page.goto("/en/about");
    await markDocument(page);
    await page.locator(".site-logo").click();
    await page.waitForURL((url) => url.pathname === "/en");
    await expect.poll(() => page.getAttribute("html", "lang")).toBe("en");
    expect(await page.locator(".site-nav").textContent()).toContain("Home");
    // The router changes the address before it renders the home page: wait for its content.
    await expect.poll(() => page.locator("main").textContent()).toContain("Popular circles");
    const homeTitle = await page.title();
    await page.locator(".site-nav").getByRole("link", { name: "Circles" }).click();
    await page.waitForURL((url) => url.pathname === "/en/circles");
    await expect.poll(() => page.title()).not.toBe(homeTitle);
    expect(await page.title()).toMatch(/ - Circles$/);
    expect(await page.getAttribute("html", "lang")).toBe("en");
    expect(await sameDocument(page)).toBe(true);
    await context.close();
  });

  it("a guard met in-app sends to login with the page itself as the way back", async () => {
    const { context, page } = await newVisitor();
    await page.goto("/en/about");
    await markDocument(page);
    await page.getByRole("link", { name: "Write" }).click();
    await page.waitForURL((url) => url.pathname === "/en/login");
    expect(new URL(page.url()).searchParams.get("next")).toBe("/write");
    expect(await sameDocument(page)).toBe(true);
    await context.close();
  });
});

describe("error screen", () => {
  it("shows 404 with the spec's text in correct English, a details toggle hidden at first, and a way home (en)", async () => {
    const { context, page } = await newVisitor();
    const response = await page.goto("/en/no/such/page");
    expect(response?.status()).toBe(404);
    expect(await page.title()).toBe("404 The page you are looking for doesn't exist or another error occurred.");
    expect(await page.getByText("The page you are looking for doesn't exist or another error occurred.").isVisible()).toBe(true);
    const details = page.locator(".error-details pre");
    expect(await details.isVisible()).toBe(false);
    await page.getByText("Show details").click();
    expect(await details.isVisible()).toBe(true);
    expect(await details.textContent()).toContain("/en/no/such/page");
    await page.getByText("Hide details").click();
    expect(await details.isVisible()).toBe(false);
    await page.getByRole("link", { name: "Return to home page" }).click();
    await page.waitForURL((url) => url.pathname === "/en");
    await context.close();
  });

  it("is translated on Chinese pages, and a {lang} path with another language is a 404", async () => {
    const { context, page } = await newVisitor();
    const response = await page.goto("/writing/5/fr");
    expect(response?.status()).toBe(404);
    expect(await page.title()).toBe("404 您访问的页面不存在，或发生了其他错误。");
    expect(await page.getByRole("link", { name: "返回首页" }).getAttribute("href")).toBe("/");
    await context.close();
  });
});

describe("guards and redirects", () => {
  it("sends a signed-out visitor from /account to login and back after signing in", async () => {
    const { context, page } = await newVisitor();
    await page.goto("/account/home");
    expect(new URL(page.url()).pathname).toBe("/login");
    expect(new URL(page.url()).searchParams.get("next")).toBe("/account/home");
    await submitLogin(page, "demo", "demo12345");
    await page.waitForURL((url) => url.pathname === "/account/home");
    // Signed in, /login now leads home.
    await page.goto("/login");
    expect(new URL(page.url()).pathname).toBe("/");
    await context.close();
  });

  it("redirects legacy addresses permanently under circle 1", async () => {
    const response = await fetch(`${baseURL()}/en/wiki/details/7`, { redirect: "manual" });
    expect(response.status).toBe(301);
    expect(response.headers.get("location")).toBe("/en/circles/1/encyclopedia/7");
    const community = await fetch(`${baseURL()}/community`, { redirect: "manual" });
    expect(community.headers.get("location")).toBe("/circles");
  });

  it("never leaves the site through the language switch, whatever `next` holds", async () => {
    for (const next of ["/%09/evil.example", "/%0d%0a/evil.example", "//evil.example", "/%5Cevil.example", "https://evil.example"]) {
      const response = await fetch(`${baseURL()}/set-language?lang=zh-CN&next=${next}`, { redirect: "manual" });
      expect(response.status, next).toBe(302);
      expect(response.headers.get("location"), next).toBe("/");
    }
    const chinese = await fetch(`${baseURL()}/set-language?lang=en&next=/search%3Fq%3D%E6%95%B0`, { redirect: "manual" });
    expect(chinese.headers.get("location")).toBe("/en/search?q=%E6%95%B0");
  });

  it("renders readable pages without JavaScript", async () => {
    const { context, page } = await newVisitor({ javaScriptEnabled: false });
    await page.goto("/en/circles");
    expect(await page.locator("h1").textContent()).toBe("All circles");
    expect(await page.getByRole("link", { name: "Statistics & Probability", exact: true }).count()).toBe(1);
    const primary = await page.getByRole("link", { name: "Write" }).evaluate((element) => getComputedStyle(element).backgroundColor);
    expect(primary).toBe("rgb(10, 108, 208)");
    await context.close();
  });
});

describe("content security policy", () => {
  it("sends a nonce-based policy, hydrates under it, and blocks scripts without the nonce", async () => {
    const { context, page } = await newVisitor();
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(String(error)));
    const response = await page.goto("/en/circles");
    const policy = response!.headers()["content-security-policy"]!;
    expect(policy).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+'/);
    expect(policy).toContain("object-src 'none'");
    // Hydrated: client-side navigation works.
    await page.getByRole("link", { name: "Mathematics", exact: true }).click();
    await page.waitForURL((url) => url.pathname === "/en/circles/2");
    await expect.poll(() => page.locator("h1").textContent()).toBe("Mathematics");
    // An injected inline script without the nonce does not run.
    const ran = await page.evaluate(() => {
      const script = document.createElement("script");
      script.textContent = "window.__injected = true";
      document.body.append(script);
      return (window as unknown as { __injected?: boolean }).__injected === true;
    });
    expect(ran).toBe(false);
    expect(errors).toEqual([]);
    await context.close();
  });
});
