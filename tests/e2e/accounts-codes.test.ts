import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Page } from "playwright-core";
import { closeBrowser, launchBrowser, newAccount, newVisitor, signInAsNewUser, submitLogin, uniqueName } from "./browser.ts";
import { solveCaptcha } from "./captcha-solver.ts";
import { lastMessageTo } from "../support/outbox.ts";

beforeAll(launchBrowser);
afterAll(closeBrowser);

/** Pages answer through the network on a busy machine: wait for what the page should come to show. */
const eventually = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 15_000 });

/** The code the server "sent" to an address: the test server has no SMTP or SMS, so it is in DATA_DIR/outbox. */
async function codeSentTo(to: string): Promise<string> {
  await eventually(() => lastMessageTo(inject("dataDir"), to)?.code).toMatch(/^\d{6}$/);
  return lastMessageTo(inject("dataDir"), to)!.code!;
}

let phoneCounter = 0;
/** A fresh Chinese mobile number: national digits and E.164. */
function newPhone() {
  phoneCounter += 1;
  const national = `136${String(Date.now() % 100_000).padStart(5, "0")}${String(phoneCounter).padStart(3, "0")}`;
  return { national, e164: `+86${national}` };
}

async function solved(page: Page) {
  await solveCaptcha(page);
  await page.locator('.captcha[data-phase="solved"]').waitFor();
}

const avatarMenu = (page: Page) => page.getByTestId("avatar-menu");

/**
 * Clicks a form's main button once it is idle (a slow machine may still show it busy from the
 * previous post, when antd adds a "loading" icon to its name), after checking the name it shows.
 */
async function submit(page: Page, intent: string, name: string) {
  const button = page.locator(`button.ant-btn[name="intent"][value="${intent}"]:not(.ant-btn-loading)`);
  expect(await button.textContent()).toBe(name);
  await button.click();
}

describe("SMS sign-in through the dev outbox", () => {
  it("creates an account for a new phone, asking for a username (zh)", async () => {
    const { context, page } = await newVisitor();
    const phone = newPhone();
    await page.goto("/login");
    await page.getByRole("link", { name: "短信登录" }).click();
    await page.waitForURL((url) => url.search === "?mode=sms");
    await eventually(() => page.getByRole("link", { name: "短信登录" }).getAttribute("aria-current")).toBe("page");

    // The phone comes first, checked in the browser and on the server.
    await page.getByRole("button", { name: "获取验证码" }).click();
    expect(await page.locator('[data-field-error="sms-phone"]').textContent()).toBe("请先输入手机号");
    await page.fill("#sms-phone", phone.national);
    await solved(page);
    await page.getByRole("button", { name: "获取验证码" }).click();
    await eventually(() => page.locator("#sms-notice").textContent()).toBe(`验证码已发送至 ${phone.national}，5 分钟内有效。`);
    // The button counts down the minute before another code may be sent.
    const resend = page.locator("#sms-send");
    await eventually(() => resend.textContent()).toMatch(/^\d+ 秒后重新发送$/);
    expect(await resend.isDisabled()).toBe(true);

    await page.fill("#sms-code", await codeSentTo(phone.e164));
    await submit(page, "sms_login", "登录");
    await eventually(() => page.locator("#sms-notice").textContent()).toBe("该手机号尚未注册，请设置用户名以创建账号。");
    const username = uniqueName("sms");
    await page.fill("#sms-username", username);
    await submit(page, "sms_login", "登录");
    await page.waitForURL((url) => url.pathname === "/");
    await eventually(() => avatarMenu(page).textContent()).toContain(username);
    await context.close();
  });

  it("says when a number is invalid, then signs in (en)", async () => {
    const { context, page } = await newVisitor();
    const phone = newPhone();
    await page.goto("/en/login?mode=sms");
    expect(await page.locator('select[name="region"]').inputValue()).toBe("CN");
    await page.fill("#sms-phone", "12345");
    await solved(page);
    await page.getByRole("button", { name: "Send code" }).click();
    await eventually(() => page.locator('[data-field-error="sms-phone"]').textContent()).toBe("Invalid phone number!");

    await page.fill("#sms-phone", `+86 ${phone.national}`);
    await solved(page);
    await page.getByRole("button", { name: "Send code" }).click();
    await eventually(() => page.locator("#sms-send").textContent()).toMatch(/^Send again in \d+ s$/);
    await page.fill("#sms-code", await codeSentTo(phone.e164));
    const username = uniqueName("smsen");
    await page.keyboard.press("Enter");
    await page.locator("#sms-username").waitFor();
    await page.fill("#sms-username", username);
    await page.getByLabel("Stay signed in (30 days)").check();
    await submit(page, "sms_login", "Log in");
    await page.waitForURL((url) => url.pathname === "/en");
    await eventually(() => avatarMenu(page).textContent()).toContain(username);
    const session = (await context.cookies()).find((cookie) => cookie.name === "sessionid");
    expect(session!.expires).toBeGreaterThan(Date.now() / 1000 + 29 * 86_400);
    await context.close();
  });
});

describe("password reset by email code", () => {
  it("goes email → code → new password → done, signs out everywhere, and the new password works (zh)", async () => {
    // The account is signed in elsewhere; the reset must end that session too.
    const elsewhere = await newVisitor();
    const account = await signInAsNewUser(elsewhere.context);
    await elsewhere.page.goto("/account/home");
    expect(new URL(elsewhere.page.url()).pathname).toBe("/account/home");

    const { context, page } = await newVisitor();
    await page.goto("/login");
    await page.getByRole("link", { name: "忘记密码？" }).click();
    await page.waitForURL((url) => url.pathname === "/forget_password");
    await eventually(() => page.title()).toBe("忘记密码 - 圈子");
    const current = () => page.locator('.steps [aria-current="step"]').textContent();
    expect(await current()).toBe("邮箱");

    await page.fill("#forget-email", account.email);
    await solved(page);
    await page.getByRole("button", { name: "发送验证码" }).click();
    await eventually(current).toBe("验证码");
    expect(await page.locator("#forget-notice").textContent()).toBe(
      `如果有账号使用 ${account.email}，验证码已发送到该邮箱，5 分钟内有效。`,
    );
    await eventually(() => page.locator("#forget-resend").textContent()).toMatch(/^\d+ 秒后重新发送$/);

    const code = await codeSentTo(account.email);
    await page.fill("#forget-code", code === "000000" ? "111111" : "000000");
    await page.getByRole("button", { name: "验证", exact: true }).click();
    await eventually(() => page.getByRole("alert").first().textContent()).toContain("验证码错误。");
    await page.fill("#forget-code", code);
    await submit(page, "verify", "验证");
    await eventually(current).toBe("新密码");

    await page.fill("#forget-password", "newpass123");
    await page.fill("#forget-confirm", "newpass124");
    await page.getByRole("button", { name: "修改密码" }).click();
    expect(await page.locator('[data-field-error="forget-confirm"]').textContent()).toBe("两次输入的密码不一致！");
    await page.fill("#forget-confirm", "newpass123");
    await page.getByRole("button", { name: "修改密码" }).click();
    await eventually(current).toBe("完成");
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("密码已修改");

    // The other session is over.
    await elsewhere.page.goto("/account/home");
    await elsewhere.page.waitForURL((url) => url.pathname === "/login");
    await elsewhere.context.close();

    await page.getByRole("link", { name: "返回登录" }).first().click();
    await page.waitForURL((url) => url.pathname === "/login");
    await submitLogin(page, account.username, account.password);
    await eventually(() => page.getByRole("alert").first().textContent()).toContain("用户名或密码错误");
    await submitLogin(page, account.username, "newpass123");
    await page.waitForURL((url) => url.pathname === "/");
    await eventually(() => avatarMenu(page).textContent()).toContain(account.username);
    await context.close();
  });

  it("works in English and answers the same for an address without an account (en)", async () => {
    const account = newAccount();

    const { context, page } = await newVisitor();
    await page.goto("/en/login");
    await page.getByRole("link", { name: "Forgot password?" }).click();
    await page.waitForURL((url) => url.pathname === "/en/forget_password");
    await page.getByRole("button", { name: "Send verification code" }).click();
    expect(await page.locator('[data-field-error="forget-email"]').textContent()).toBe("Please enter an email.");

    // An address nobody uses gets the same next step (and a mail saying so, without a code).
    const nobody = `${uniqueName("nobody")}@example.com`;
    await page.fill("#forget-email", nobody);
    await solved(page);
    await page.getByRole("button", { name: "Send verification code" }).click();
    await eventually(() => page.locator('.steps [aria-current="step"]').textContent()).toBe("Verification code");
    expect(await page.locator("#forget-notice").textContent()).toBe(
      `If an account uses ${nobody}, a verification code has been sent there. It is valid for 5 minutes.`,
    );
    await eventually(() => lastMessageTo(inject("dataDir"), nobody)?.subject).toBe("Password reset on Circles");

    await page.getByRole("link", { name: "Use another email address" }).click();
    await eventually(() => page.locator('.steps [aria-current="step"]').textContent()).toBe("Email");
    await page.fill("#forget-email", account.email);
    await solved(page);
    await page.getByRole("button", { name: "Send verification code" }).click();
    await page.locator("#forget-code").waitFor();
    await page.fill("#forget-code", await codeSentTo(account.email));
    await page.keyboard.press("Enter");
    await page.locator("#forget-password").waitFor();
    await page.fill("#forget-password", "lettersonly");
    await page.fill("#forget-confirm", "lettersonly");
    await page.keyboard.press("Enter");
    expect(await page.locator('[data-field-error="forget-password"]').textContent()).toBe("Password should contain letters and numbers");
    await page.fill("#forget-password", "fresh1234");
    await page.fill("#forget-confirm", "fresh1234");
    await page.getByRole("button", { name: "Change password" }).click();
    await eventually(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("Password changed");
    expect(await page.locator(".reset-done p").textContent()).toBe(
      "You have been logged out on every device. Log in with your new password.",
    );
    await page.getByRole("link", { name: "Back to log in" }).first().click();
    await page.waitForURL((url) => url.pathname === "/en/login");
    await submitLogin(page, account.username, "fresh1234", "Log in");
    await page.waitForURL((url) => url.pathname === "/en");
    await context.close();
  });
});

describe("signing in without the puzzle", () => {
  it("is reachable by keyboard, announced, and a code from the mailbox replaces the puzzle (zh)", async () => {
    const account = newAccount();

    const { context, page } = await newVisitor();
    await page.goto("/login");
    await page.fill("#login-username", account.username);
    await page.fill("#login-password", account.password);
    // Keyboard only: Tab from the password field reaches the link (past the puzzle's own controls).
    const link = page.getByRole("link", { name: "无法完成拼图？改用验证码" });
    await link.focus();
    await page.keyboard.press("Enter");
    const send = page.getByRole("button", { name: "发送验证码到我的邮箱或手机" });
    await eventually(() => send.evaluate((button) => button === document.activeElement)).toBe(true);
    expect(await page.locator(".captcha").count()).toBe(0);
    expect(await page.getByRole("group", { name: /我们会向上面填写的账号的邮箱/ }).count()).toBe(1);
    expect(await page.locator('.visually-hidden[aria-live="polite"]').textContent()).toContain("我们会向上面填写的账号的邮箱");

    await page.keyboard.press("Enter");
    await eventually(() => page.locator("#login-notice").textContent()).toBe(
      "如果该账号存在，验证码已发送到它的邮箱或手机，5 分钟内有效。",
    );
    expect(await page.locator("#login-notice").getAttribute("aria-live")).toBe("polite");
    await eventually(() => page.locator("#login-code-send").textContent()).toMatch(/^\d+ 秒后重新发送$/);
    const message = lastMessageTo(inject("dataDir"), account.email)!;
    expect(message.text).toContain("可代替拼图验证用于登录");

    await submit(page, "login", "登录");
    expect(await page.locator('[data-field-error="login-code"]').textContent()).toBe("请输入验证码。");
    await page.fill("#login-code", await codeSentTo(account.email));
    await submit(page, "login", "登录");
    await page.waitForURL((url) => url.pathname === "/");
    await eventually(() => avatarMenu(page).textContent()).toContain(account.username);
    await context.close();
  });

  it("works in English, and the puzzle can be chosen again (en)", async () => {
    const account = newAccount();

    const { context, page } = await newVisitor();
    await page.goto("/en/login");
    await page.getByRole("link", { name: "Can't do the puzzle? Get a code instead" }).click();
    await page.getByRole("link", { name: "Solve the puzzle instead" }).click();
    await page.locator('.captcha[data-phase="ready"]').waitFor();
    await page.getByRole("link", { name: "Can't do the puzzle? Get a code instead" }).click();
    await page.getByRole("button", { name: "Send code to my email or phone" }).click();
    expect(await page.locator('[data-field-error="login-username"]').textContent()).toBe("Please enter your username or email.");

    await page.fill("#login-username", account.email);
    await page.getByRole("button", { name: "Send code to my email or phone" }).click();
    await eventually(() => page.locator("#login-notice").textContent()).toBe(
      "If this account exists, a code has been sent to its email address or phone. It is valid for 5 minutes.",
    );
    await page.fill("#login-password", account.password);
    await page.fill("#login-code", await codeSentTo(account.email));
    await submit(page, "login", "Log in");
    await page.waitForURL((url) => url.pathname === "/en");
    await eventually(() => avatarMenu(page).textContent()).toContain(account.username);
    await context.close();
  });
});

describe("the dev outbox page", () => {
  it("does not exist on a production server", async () => {
    const { context, page } = await newVisitor();
    const response = await page.goto("/dev/outbox");
    expect(response!.status()).toBe(404);
    await context.close();
  });
});
