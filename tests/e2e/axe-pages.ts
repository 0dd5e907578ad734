import { expect } from "vitest";
import { newVisitor, seriousViolations } from "./browser.ts";

/** Public page shapes checked with axe-core in light (accessibility.test.ts) and dark mode (accessibility-dark.test.ts). */
export const axePages = [
  "/",
  "/en/circles",
  "/circles/3",
  "/en/login",
  "/login?mode=sms",
  "/en/login?puzzle=code",
  "/forget_password",
  "/register",
  "/en/search?q=math",
  "/ranking",
  "/about",
  "/en/help",
  "/en/no-such-page",
  "/profile/demo",
  "/en/profile/creator?tab=questions",
  // The demo question with its accepted answer (features/questions/seed.ts), through its legacy address.
  "/community/questions/1",
  // The Mathematics circle's wiki home, and the demo entry 勾股定理's English version (features/encyclopedia/seed.ts) through the legacy address.
  "/en/circles/2/encyclopedia",
  "/wiki/details/2/en",
];

/** Opens `path` as a visitor in the given colour scheme and expects no serious or critical axe violation. */
export async function expectNoSeriousViolation(path: string, colorScheme: "light" | "dark") {
  // bypassCSP lets the test inject axe-core; the page itself runs under its real policy otherwise.
  const { context, page } = await newVisitor({ colorScheme, locale: path.startsWith("/en") ? "en" : "zh-CN", bypassCSP: true });
  await page.goto(path);
  expect(await seriousViolations(page)).toEqual([]);
  await context.close();
}
