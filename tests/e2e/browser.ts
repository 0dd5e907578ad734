import { createRequire } from "node:module";
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from "playwright-core";
import { inject } from "vitest";
import { chromiumPath } from "./global-setup.ts";
import { solveCaptcha, solveCaptchaThroughApi } from "./captcha-solver.ts";

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
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--no-first-run",
      "--disable-sync",
      "--disable-quic",
    ],
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

/** A visitor already signed in as the run's reader account (no puzzle); never log it out. */
export async function signedInVisitor(options: BrowserContextOptions = {}): Promise<{ context: BrowserContext; page: Page }> {
  return newVisitor({ storageState: JSON.parse(inject("signedInState")), ...options });
}

let counter = 0;
export function uniqueName(prefix: string): string {
  counter += 1;
  return `${prefix}${Date.now().toString(36).slice(-5)}${counter}`;
}

export interface Registration {
  username: string;
  password?: string;
  confirm?: string;
  email?: string;
  /** The gender's visible label in the page's language (男 / Female …). */
  gender: string;
  birthday: string;
  country: string;
  /** The submit button's label in the page's language. */
  submit: string;
}

/** Fills the register form on the current page, solves the slider puzzle (unless told not to) and submits it. */
export async function submitRegistration(page: Page, form: Registration & { solvePuzzle?: boolean }): Promise<void> {
  const password = form.password ?? "secret123";
  await page.fill("#register-username", form.username);
  await page.fill("#register-email", form.email ?? `${form.username}@example.com`);
  await page.fill("#register-password", password);
  await page.fill("#register-confirm", form.confirm ?? password);
  await page.getByLabel(form.gender).check();
  await page.fill("#register-birthday", form.birthday);
  await page.selectOption("#register-country", form.country);
  if (form.solvePuzzle ?? true) {
    await solveCaptcha(page);
    await page.locator('.captcha[data-phase="solved"]').waitFor();
  }
  await page.getByRole("button", { name: form.submit }).click();
}

/**
 * Signs up through the API inside the visitor's browser context (so that context is signed in),
 * solving the sign-up puzzle as the page's script would: for tests about something other than
 * the sign-up form, and for visitors without JavaScript.
 */
export async function registerThroughApi(context: BrowserContext, username: string, password = "secret123") {
  const { csrftoken } = (await (await context.request.get("/api/get_csrf_token/")).json()) as { csrftoken: string };
  const captcha = await solveCaptchaThroughApi(context.request, csrftoken);
  const email = `${username}@example.com`;
  const response = await context.request.post("/api/Users/register/", {
    headers: { "x-csrftoken": csrftoken },
    data: { username, email, password, confirm_password: password, gender: "secret", birthday: "1990-01-01", country: "CN", captcha },
  });
  if (response.status() !== 201) throw new Error(`Sign-up failed (${response.status()}): ${await response.text()}`);
  return { username, email, password };
}

/** Fills the login form on the current page, solves the slider puzzle and submits. */
export async function submitLogin(page: Page, username: string, password: string, submit = "登录"): Promise<void> {
  await page.fill("#login-username", username);
  await page.fill("#login-password", password);
  await solveCaptcha(page);
  await page.locator('.captcha[data-phase="solved"]').waitFor();
  await page.getByRole("button", { name: submit }).click();
}

const axePath = createRequire(import.meta.url).resolve("axe-core/axe.min.js");

/** axe-core's serious and critical findings on the current page, with their help text (the context must bypass the CSP). */
export async function seriousViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: axePath });
  const violations = await page.evaluate(async () => {
    type Found = { id: string; impact: string | null; help: string; nodes: { target: string[] }[] };
    const axe = (window as unknown as { axe: { run: (context: Document) => Promise<{ violations: Found[] }> } }).axe;
    return (await axe.run(document)).violations;
  });
  return violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map((violation) => `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(" ")).join(", ")})`);
}
