import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeBrowser, launchBrowser, newVisitor, signedInVisitor, seriousViolations } from "./browser.ts";
import { axePages, expectNoSeriousViolation } from "./axe-pages.ts";

beforeAll(launchBrowser);
afterAll(closeBrowser);

describe("accessibility (axe-core, no serious or critical violation)", () => {
  // The same pages in dark mode are in accessibility-dark.test.ts, so the two run side by side.
  it.each(axePages)("%s (light)", (path) => expectNoSeriousViolation(path, "light"));

  it("the signed-in header and account page", async () => {
    const { context, page } = await signedInVisitor({ bypassCSP: true });
    await page.goto("/");
    await page.getByTestId("avatar-menu").click();
    expect(await seriousViolations(page)).toEqual([]);
    for (const path of [
      "/account/home",
      "/account/profile",
      "/en/account/avatar",
      "/account/store",
      "/en/account/missions",
      "/profile/creator",
      "/en/messages/like_attention",
      "/creator",
      "/en/creator/manage/content",
      "/creator/manage/comment",
    ]) {
      await page.goto(path);
      expect(await seriousViolations(page), path).toEqual([]);
    }
    await context.close();
  }, 240_000);

  for (const [path, colorScheme] of [
    ["/login", "light"],
    ["/login", "dark"],
    ["/en/login", "light"],
    ["/en/login", "dark"],
  ] as const) {
    it(`the login form's errors after an empty submit, ${path} (${colorScheme})`, async () => {
      const { context, page } = await newVisitor({ colorScheme, locale: path.startsWith("/en") ? "en" : "zh-CN", bypassCSP: true });
      await page.goto(path);
      await page.getByRole("button", { name: path.startsWith("/en") ? "Log in" : "登录", exact: true }).click();
      await page.locator('[data-field-error="login-username"]').waitFor();
      expect(await page.locator(".form-error").count()).toBeGreaterThanOrEqual(2);
      // color-contrast is among axe's serious checks: the error text must keep 4.5:1.
      expect(await seriousViolations(page)).toEqual([]);
      await context.close();
    });
  }

  it("the password eye is at least 24 × 24 on a phone and named in Chinese on Chinese pages", async () => {
    const { context, page } = await newVisitor({ viewport: { width: 390, height: 800 }, isMobile: true, hasTouch: true });
    await page.goto("/login");
    await page.locator('.captcha[data-phase="ready"]').waitFor();
    const field = page.locator(".ant-input-password");
    const eye = field.getByRole("button", { name: "显示密码", exact: true });
    const box = await eye.boundingBox();
    expect(box?.width).toBeGreaterThanOrEqual(24);
    expect(box?.height).toBeGreaterThanOrEqual(24);
    // Nothing inside it is read out in English (antd's icon is named "eye-invisible").
    expect(await field.ariaSnapshot()).not.toMatch(/eye|show|hide/i);
    await eye.tap();
    expect(await page.locator("#login-password").getAttribute("type")).toBe("text");
    expect(await field.getByRole("button", { name: "隐藏密码", exact: true }).count()).toBe(1);
    await page.goto("/en/register");
    expect(await page.getByRole("button", { name: "Show password", exact: true }).count()).toBe(2);
    await context.close();
  });
});

describe("keyboard focus", () => {
  for (const colorScheme of ["light", "dark"] as const) {
    it(`rings the header's links and the Write button (${colorScheme})`, async () => {
      const { context, page } = await newVisitor({ colorScheme });
      await page.goto("/circles");
      const stops: {
        text: string;
        write: boolean;
        focusVisible: boolean;
        outlineStyle: string;
        outlineWidth: number;
        outlineColor: string;
      }[] = [];
      for (let index = 0; index < 10; index++) {
        await page.keyboard.press("Tab");
        stops.push(
          await page.evaluate(() => {
            const element = document.activeElement as HTMLElement;
            const style = getComputedStyle(element);
            return {
              text: element.textContent?.trim() ?? "",
              write: element.classList.contains("button-primary"),
              focusVisible: element.matches(":focus-visible"),
              outlineStyle: style.outlineStyle,
              outlineWidth: Number.parseFloat(style.outlineWidth),
              outlineColor: style.outlineColor,
            };
          }),
        );
      }
      const home = stops.find((stop) => stop.text === "首页");
      const write = stops.find((stop) => stop.write);
      expect(home).toBeDefined();
      expect(write?.text).toBe("写文章");
      for (const stop of stops) {
        expect(stop.focusVisible, stop.text).toBe(true);
        expect(stop.outlineStyle, stop.text).not.toBe("none");
        expect(stop.outlineWidth, stop.text).toBeGreaterThanOrEqual(2);
        expect(stop.outlineColor, stop.text).not.toMatch(/^rgba\(.*, 0\)$|transparent/);
      }
      await context.close();
    });
  }
});
