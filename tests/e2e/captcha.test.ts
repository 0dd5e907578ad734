import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeBrowser, launchBrowser, newVisitor, submitLogin } from "./browser.ts";
import { solveCaptcha } from "./captcha-solver.ts";

beforeAll(launchBrowser);
afterAll(closeBrowser);

const phase = (page: import("playwright-core").Page) => page.locator(".captcha").getAttribute("data-phase");

describe("the sign-in slider puzzle", () => {
  it("asks for it before sending the form, refuses a wrong drop and deals a new puzzle (zh)", async () => {
    const { context, page } = await newVisitor();
    await page.goto("/login");
    await page.locator('.captcha[data-phase="ready"]').waitFor();
    expect(await page.locator(".captcha-prompt").textContent()).toBe("拖动滑块完成验证");
    await page.fill("#login-username", "demo");
    await page.fill("#login-password", "demo12345");
    await page.getByRole("button", { name: "登录", exact: true }).click();
    expect(await page.locator('[data-field-error="login-captcha"]').textContent()).toBe("请拖动滑块完成验证");
    expect(new URL(page.url()).pathname).toBe("/login");

    const first = await page.locator(".captcha-background").getAttribute("src");
    await solveCaptcha(page, "drag", 60);
    await expect.poll(() => page.locator(".captcha-status").textContent()).toContain("验证失败，请重试。");
    // A new puzzle follows a moment later.
    await expect.poll(() => phase(page), { timeout: 5000 }).toBe("ready");
    expect(await page.locator(".captcha-background").getAttribute("src")).not.toBe(first);
    expect(await page.inputValue('input[name="captcha"]')).toBe("");
    await context.close();
  });

  it("can be solved with the keyboard, and another puzzle can be asked for (en)", async () => {
    const { context, page } = await newVisitor();
    await page.goto("/en/login");
    await solveCaptcha(page, "keys");
    await expect.poll(() => phase(page)).toBe("solved");
    expect(await page.locator(".captcha-status").textContent()).toContain("Verified");
    expect(await page.inputValue('input[name="captcha"]')).not.toBe("");

    const solved = await page.locator(".captcha-background").getAttribute("src");
    await page.getByRole("button", { name: "Another puzzle" }).click();
    await expect.poll(() => phase(page)).toBe("ready");
    expect(await page.locator(".captcha-background").getAttribute("src")).not.toBe(solved);
    expect(await page.inputValue('input[name="captcha"]')).toBe("");
    await context.close();
  });

  it("is good for one attempt: after a wrong password a new one is dealt, and solving it signs in", async () => {
    const { context, page } = await newVisitor();
    await page.goto("/en/login");
    await submitLogin(page, "demo", "wrong-pass1", "Log in");
    await expect.poll(() => page.getByRole("alert").first().textContent()).toContain("Invalid or incorrect username or password");
    await expect.poll(() => phase(page)).toBe("ready");

    await submitLogin(page, "demo", "demo12345", "Log in");
    await page.waitForURL((url) => url.pathname === "/en");
    expect(await page.getByTestId("avatar-menu").textContent()).toContain("演示用户");
    await context.close();
  });
});
