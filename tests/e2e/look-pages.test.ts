import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeBrowser, hydrated, launchBrowser, newVisitor, signInAsNewUser } from "./browser.ts";

beforeAll(launchBrowser);
afterAll(closeBrowser);

describe("the question page", () => {
  it("folds the question's comments behind 'N comments' and shows the answer orders as a segmented control", async () => {
    for (const [prefix, locale, label] of [
      ["", "zh-CN", /^\d+ 条评论$/],
      ["/en", "en", /^\d+ comments?$/],
    ] as const) {
      const { context, page } = await newVisitor({ locale, viewport: { width: 1280, height: 900 } });
      // The demo question (features/questions/seed.ts), through its legacy address.
      await page.goto(`${prefix}/community/questions/1`);
      const fold = page.getByTestId("question-comments");
      expect(await fold.evaluate((details) => (details as HTMLDetailsElement).open)).toBe(false);
      expect((await fold.locator("summary").textContent())!.trim()).toMatch(label);
      expect((await fold.boundingBox())!.height).toBeLessThan(80);
      await fold.locator("summary").click();
      expect(await page.getByTestId("comments").isVisible()).toBe(true);

      const sorts = page.locator(".answers-toolbar .sort-nav a");
      expect(await sorts.count()).toBe(2);
      const [first, second] = [(await sorts.nth(0).boundingBox())!, (await sorts.nth(1).boundingBox())!];
      expect(Math.abs(first.y - second.y)).toBeLessThan(2);
      expect(second.x).toBeGreaterThanOrEqual(first.x + first.width);
      expect(first.width).toBeGreaterThan(40);
      expect(await page.locator(".answers-toolbar .sort-nav").evaluate((nav) => getComputedStyle(nav).borderTopWidth)).toBe("1px");
      const current = page.locator('.answers-toolbar .sort-nav a[aria-current="true"]');
      expect(await current.evaluate((link) => getComputedStyle(link).backgroundColor)).not.toBe("rgba(0, 0, 0, 0)");
      await context.close();
    }
  });
});

describe("texts", () => {
  it("the wallet filter names kinds without unfilled placeholders, English lists use a Latin colon, Chinese citations name 圈子百科", async () => {
    const { context, page } = await newVisitor({ locale: "zh-CN" });
    await signInAsNewUser(context);
    await page.goto("/wallet/sinecoin");
    const options = await page.locator('select[name="kind"] option').allTextContents();
    expect(options).toContain("赞赏");
    for (const option of options) expect(option).not.toMatch(/…|《|\{\{/);

    await page.goto("/circles/2/encyclopedia/1");
    const cites = await page.locator(".cite-text").evaluateAll((areas) => areas.map((area) => (area as HTMLTextAreaElement).value));
    expect(cites.length).toBeGreaterThan(0);
    expect(cites.join("\n")).toContain("圈子百科");
    expect(cites.join("\n")).not.toContain("Circles 百科");

    await page.goto("/en/community/questions/1");
    const circleId = /\/circles\/(\d+)\//.exec(page.url())![1];
    await page.goto(`/en/circles/${circleId}/questions`);
    const best = (await page.getByTestId("best-answer").first().textContent())!;
    // The name and a Latin colon, then the answer (itself Chinese here).
    expect(best).toMatch(/^(Accepted)?[^:：]+: /);
    await context.close();
  });
});

describe("the report dialog", () => {
  it("opens with no reason chosen, with Submit and Close side by side", async () => {
    const { context, page } = await newVisitor({ locale: "zh-CN", viewport: { width: 1280, height: 900 } });
    await signInAsNewUser(context);
    await page.goto("/circles/2/writing/1");
    await hydrated(page);
    await page.getByTestId("action-bar").getByTestId("report").click();
    const dialog = page.getByTestId("report-dialog");
    await dialog.getByTestId("report-submit").waitFor();
    expect(await dialog.locator('input[name="reason"]:checked').count()).toBe(0);
    const [submit, close] = [
      (await dialog.getByTestId("report-submit").boundingBox())!,
      (await dialog.getByTestId("report-close").boundingBox())!,
    ];
    expect(Math.abs(submit.y - close.y)).toBeLessThan(2);
    expect(close.x).toBeGreaterThanOrEqual(submit.x + submit.width + 4);
    await dialog.getByTestId("report-close").click();
    await expect.poll(() => dialog.isVisible()).toBe(false);
    await context.close();
  });
});

describe("form controls", () => {
  it("the chat's image input is our button with a name in the page's language; native selects are styled", async () => {
    const { context, page } = await newVisitor({ locale: "zh-CN" });
    await signInAsNewUser(context);
    await page.goto("/messages/chat/creator");
    await hydrated(page);
    expect(await page.locator(".file-picker-button").textContent()).toBe("选择图片");
    expect(await page.locator(".file-picker-input").evaluate((input) => getComputedStyle(input).opacity)).toBe("0");
    await page.locator(".file-picker-input").setInputFiles({ name: "图.png", mimeType: "image/png", buffer: Buffer.from("x") });
    await expect.poll(() => page.getByTestId("chat-image-name").textContent()).toBe("图.png");

    await page.goto("/wallet/sinecoin");
    const select = page.locator('select[name="kind"]');
    expect(await select.evaluate((element) => getComputedStyle(element).borderTopLeftRadius)).toBe("6px");
    await context.close();
  });
});

describe("the circle list", () => {
  it("puts each circle's counts right under its text, without a connector, and only the counts that are not zero", async () => {
    const { context, page } = await newVisitor({ locale: "zh-CN", viewport: { width: 1280, height: 900 } });
    await page.goto("/circles");
    const counts = page.locator(".circle-tree .circle-counts");
    expect(await counts.count()).toBeGreaterThan(0);
    for (const list of (await counts.all()).slice(0, 5)) {
      const description = list.locator("xpath=preceding-sibling::div[1]");
      const [listBox, textBox] = [(await list.boundingBox())!, (await description.boundingBox())!];
      expect(Math.abs(listBox.x - textBox.x)).toBeLessThan(2);
      expect(await list.evaluate((element) => getComputedStyle(element).borderLeftStyle)).toBe("none");
    }
    for (const item of await counts.locator("li").allTextContents()) expect(item).not.toMatch(/^0\D/);
    await context.close();
  });
});
