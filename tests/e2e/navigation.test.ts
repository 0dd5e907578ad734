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

describe("error screen", () => {
  it("shows 404 with the spec's text, a details toggle hidden at first, and a way home (en)", async () => {
    const { context, page } = await newVisitor();
    const response = await page.goto("/en/no/such/page");
    expect(response?.status()).toBe(404);
    expect(await page.title()).toBe("404 The page you are looking for doesnt exist or an other error occurred.");
    expect(await page.getByText("The page you are looking for doesnt exist or an other error occurred.").isVisible()).toBe(true);
    const details = page.locator(".error-details pre");
    expect(await details.isVisible()).toBe(false);
    await page.getByText("Show details").click();
    expect(await details.isVisible()).toBe(true);
    expect(await details.textContent()).toContain("/en/no/such/page");
    await page.getByText("Hide details").click();
    expect(await details.isVisible()).toBe(false);
    await page.getByRole("link", { name: "return to home page" }).click();
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

  it("renders readable pages without JavaScript", async () => {
    const { context, page } = await newVisitor({ javaScriptEnabled: false });
    await page.goto("/en/circles");
    expect(await page.locator("h1").textContent()).toBe("All circles");
    expect(await page.getByRole("link", { name: "Statistics & Probability" }).count()).toBe(1);
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
    await page.getByRole("link", { name: "Mathematics" }).click();
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
