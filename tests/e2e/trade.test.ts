import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { closeBrowser, launchBrowser, newVisitor, signInAsNewUser, uniqueName } from "./browser.ts";

beforeAll(launchBrowser);
afterAll(closeBrowser);

/** 50 sinecoin through the sandbox cashier, as a user tops up. */
async function topUp(page: Page, prefix: "" | "/en", pay: string, confirm: string) {
  await page.goto(`${prefix}/wallet/sinecoin_recharge`);
  await page.locator('input[name="choice"][value="50"]').check();
  await page.locator('input[name="method"][value="alipay"]').check();
  await page.getByRole("button", { name: pay }).click();
  await page.waitForURL(/\/payments\/sandbox\/tp_/);
  await page.getByRole("button", { name: confirm }).click();
  await page.waitForURL(/\/wallet\/topups\/tp_/);
  await expect.poll(() => page.getByTestId("topup-status").getAttribute("data-status")).toBe("paid");
}

/** A datetime-local value in Asia/Shanghai, two days ahead. */
function inTwoDays(): string {
  return new Date(Date.now() + 2 * 86_400_000 + 8 * 3_600_000).toISOString().slice(0, 16);
}

interface Texts {
  pay: string;
  confirm: string;
  post: string;
  accept: string;
  submit: string;
  approve: string;
  approved: string;
  slotsLeft: string;
}

/** The poster posts a 20-sinecoin task, a second user accepts and submits, the poster approves; both see it. */
async function taskJourney(prefix: "" | "/en", locale: string, texts: Texts) {
  const poster = await newVisitor({ locale });
  await signInAsNewUser(poster.context);
  await topUp(poster.page, prefix, texts.pay, texts.confirm);
  const title = uniqueName(prefix ? "Translate an entry " : "翻译词条 ");
  await poster.page.goto(`${prefix}/trade`);
  const form = poster.page.locator("form", { has: poster.page.locator('input[name="intent"][value="post"]') });
  await form.locator('input[name="title"]').fill(title);
  await form.locator('textarea[name="description"]').fill("Into **English**, keeping the references.");
  await form.locator('input[name="reward"]').fill("20");
  await form.locator('input[name="slots"]').fill("1");
  await form.locator('input[name="deadline"]').fill(inTwoDays());
  await form.getByRole("button", { name: texts.post }).click();
  // The post answers with a redirect the router follows in the page: wait for the task's address.
  await expect.poll(() => new URL(poster.page.url()).pathname, { timeout: 30_000 }).toMatch(/\/trade\/missions\/\d+$/);
  const taskUrl = new URL(poster.page.url()).pathname;
  await poster.page.goto(`${prefix}/wallet`);
  expect(await poster.page.getByTestId("wallet-sinecoin").textContent()).toContain("30");

  const worker = await newVisitor({ locale });
  await signInAsNewUser(worker.context);
  await worker.page.goto(taskUrl);
  expect(await worker.page.getByTestId("slots-left").textContent()).toBe(texts.slotsLeft);
  await worker.page.getByRole("button", { name: texts.accept }).click();
  await worker.page.waitForURL(/\/trade\/missions\/progress\/\d+$/);
  const recordUrl = new URL(worker.page.url()).pathname;
  await worker.page.locator('textarea[name="content"]').fill("The entry in English, with its references.");
  await worker.page.getByRole("button", { name: texts.submit, exact: true }).click();
  await expect.poll(() => worker.page.getByTestId("submission").textContent()).toContain("The entry in English");

  await poster.page.goto(recordUrl);
  await poster.page.getByRole("button", { name: texts.approve }).click();
  await expect.poll(() => poster.page.getByTestId("record-status").textContent()).toBe(texts.approved);

  await worker.page.goto(`${prefix}/trade/missions/me/reward`);
  expect(await worker.page.locator("main").textContent()).toContain(title);
  await worker.page.goto(`${prefix}/wallet`);
  expect(await worker.page.getByTestId("wallet-sinecoin").textContent()).toContain("20");
  await worker.page.goto(recordUrl);
  expect(await worker.page.getByTestId("record-status").textContent()).toBe(texts.approved);
  await poster.context.close();
  await worker.context.close();
}

describe("the task market", () => {
  it("posts a task with its reward held, a second user accepts and submits, the poster approves and the worker is paid (zh)", async () => {
    await taskJourney("", "zh-CN", {
      pay: "去支付",
      confirm: "确认支付",
      post: "发布并托管赏金",
      accept: "接单",
      submit: "提交",
      approve: "通过并支付",
      approved: "已通过",
      slotsLeft: "剩余 1 / 1 个名额",
    });
  });

  it("the same journey in English", async () => {
    await taskJourney("/en", "en", {
      pay: "Pay",
      confirm: "Confirm payment",
      post: "Post and hold the reward",
      accept: "Accept",
      submit: "Submit",
      approve: "Approve and pay",
      approved: "Approved",
      slotsLeft: "1 of 1 slots left",
    });
  });
});
