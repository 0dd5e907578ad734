import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from "playwright-core";
import { inject } from "vitest";
import { chromiumPath } from "./global-setup.ts";

export const baseURL = () => inject("baseURL");

let browser: Browser | undefined;
/**
 * One headless system Chromium per test file, launched with the flags this network needs;
 * Playwright gives every launch a fresh temporary profile.
 */
export async function launchBrowser(): Promise<Browser> {
  browser = await chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run", "--disable-sync", "--disable-quic"],
  });
  return browser;
}

export async function closeBrowser(): Promise<void> {
  await browser?.close();
}

/** A fresh visitor: own cookies, its own page. */
export async function newVisitor(options: BrowserContextOptions = {}): Promise<{ context: BrowserContext; page: Page }> {
  if (!browser) throw new Error("launchBrowser() first");
  const context = await browser.newContext({ baseURL: baseURL(), locale: "zh-CN", timezoneId: "Asia/Shanghai", ...options });
  const page = await context.newPage();
  return { context, page };
}

let counter = 0;
export function uniqueName(prefix: string): string {
  counter += 1;
  return `${prefix}${Date.now().toString(36).slice(-5)}${counter}`;
}
