import { writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from "playwright-core";
import { inject } from "vitest";
import { chromiumPath, type PoolAccount } from "./global-setup.ts";
import { solveCaptcha } from "./captcha-solver.ts";

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

/**
 * Takes an account of the run's pool that no other test has taken (test files run in parallel
 * processes: the claim is an exclusive file), signs `context` in as it and fetches a CSRF token,
 * as signing up would. For tests that are not about signing up; those use the puzzle.
 */
export async function signInAsNewUser(context: BrowserContext): Promise<Account> {
  const { token, ...account } = claimAccount();
  await context.addCookies([{ name: "sessionid", value: token, url: baseURL(), httpOnly: true, sameSite: "Lax" }]);
  await context.request.get("/api/get_csrf_token/");
  return account;
}

export type Account = Omit<PoolAccount, "token">;

/** An account of the run's pool no other test has taken, for a test that signs in to it itself (password, code). */
export function newAccount(): Account {
  const { token: _token, ...account } = claimAccount();
  return account;
}

function claimAccount(): PoolAccount {
  for (const account of JSON.parse(inject("accountPool")) as PoolAccount[]) {
    try {
      writeFileSync(path.join(inject("accountClaims"), account.username), "", { flag: "wx" });
      return account;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
  }
  throw new Error("Every pool account is taken: raise accountPoolSize in tests/e2e/global-setup.ts");
}

/** A visitor already signed in as the run's reader account (no puzzle); never log it out. */
export async function signedInVisitor(options: BrowserContextOptions = {}): Promise<{ context: BrowserContext; page: Page }> {
  return newVisitor({ storageState: JSON.parse(inject("signedInState")), ...options });
}

let counter = 0;
/** Unique in the run, also across test files running at the same time (each in its own process). */
export function uniqueName(prefix: string): string {
  counter += 1;
  return `${prefix}${(process.pid % 1296).toString(36)}${Date.now().toString(36).slice(-4)}${counter}`;
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

/** Waits until React has hydrated the page (its h1 carries a fiber): a click before that would be a plain form post, or lost. */
export async function hydrated(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const heading = document.querySelector("h1");
    return heading !== null && Object.keys(heading).some((key) => key.startsWith("__reactFiber"));
  });
}

/** Publishes a short article in the global village through the API, as the context's user; its path. */
export async function publishArticle(context: BrowserContext, title: string, content = "Some text to comment on.\n"): Promise<string> {
  const { csrftoken } = (await (await context.request.get("/api/get_csrf_token/")).json()) as { csrftoken: string };
  const response = await context.request.post("/api/circles/1/writings/", {
    headers: { "x-csrftoken": csrftoken },
    data: { title, content },
  });
  if (response.status() !== 201) throw new Error(`Publishing failed (${response.status()}): ${await response.text()}`);
  return ((await response.json()) as { url: string }).url;
}
