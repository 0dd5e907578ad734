import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeBrowser, hydrated, launchBrowser, newVisitor, publishArticle, signInAsNewUser, uniqueName } from "./browser.ts";

beforeAll(launchBrowser);
afterAll(closeBrowser);

const desktop = { viewport: { width: 1280, height: 900 } };

describe("circles, comments and books", () => {
  it("joins a circle from the list, in both languages", async () => {
    for (const [prefix, locale, join, joined] of [
      ["", "zh-CN", "加入", "你已加入圈子。"],
      ["/en", "en", "Join", "You joined the circle."],
    ] as const) {
      const { context, page } = await newVisitor({ ...desktop, locale });
      await signInAsNewUser(context);
      await page.goto(`${prefix}/circles`);
      await hydrated(page);
      // The Mathematics circle (circle 2, in the demo content): Join sits at the end of its row.
      const button = page.getByTestId("circle-join-2");
      expect((await button.innerText()).trim()).toBe(join);
      const row = page.locator(".circle-tree-item", { has: page.locator(`a[href="${prefix}/circles/2"]`) });
      const [buttonBox, rowBox] = [(await button.boundingBox())!, (await row.boundingBox())!];
      expect(rowBox.x + rowBox.width - (buttonBox.x + buttonBox.width)).toBeLessThan(2);
      await button.click();
      await expect.poll(() => page.getByTestId("circle-joined-notice").textContent()).toBe(joined);
      await expect.poll(() => page.getByTestId("circle-join-2").count()).toBe(0);
      await expect.poll(() => row.locator(".role-badge").count()).toBe(1);
      await context.close();
    }
    // Visitors see Join too, leading to sign in.
    const { context, page } = await newVisitor({ ...desktop, locale: "zh-CN" });
    await page.goto("/circles");
    await page.locator(".circle-tree-join").first().click();
    await page.waitForURL(/\/login\?next=/);
    await context.close();
  });

  it("underlines the circle's tab row across its whole width, under every tab", async () => {
    const { context, page } = await newVisitor({ ...desktop, locale: "zh-CN" });
    await page.goto("/circles/2");
    const toolbar = page.locator(".content-toolbar");
    const panel = (await page.getByTestId("circle-content").boundingBox())!;
    const box = (await toolbar.boundingBox())!;
    expect(await toolbar.evaluate((element) => getComputedStyle(element).borderBottomStyle)).toBe("solid");
    // The rule runs from the panel's left padding to its right padding.
    expect(panel.x + panel.width - (box.x + box.width)).toBeLessThan(30);
    const tabs = await page.locator(".content-toolbar .tabs-nav a").all();
    expect(tabs.length).toBeGreaterThanOrEqual(5);
    const current = (await page.locator('.content-toolbar .tabs-nav a[aria-current="page"]').boundingBox())!;
    // The current tab's underline sits on the row's rule.
    expect(Math.abs(current.y + current.height - (box.y + box.height))).toBeLessThan(2);
    await context.close();
  });

  it("lines up a comment's like, Reply and Report on one centre line, Reply without a triangle", async () => {
    const writer = await newVisitor({ locale: "zh-CN" });
    await signInAsNewUser(writer.context);
    const article = await publishArticle(writer.context, uniqueName("评论行 "));
    const id = /writing\/(\d+)/.exec(article)![1];
    const { csrftoken } = (await (await writer.context.request.get("/api/get_csrf_token/")).json()) as { csrftoken: string };
    const posted = await writer.context.request.post(`/api/writings/${id}/comments/`, {
      headers: { "x-csrftoken": csrftoken },
      data: { body: "写得很清楚。" },
    });
    expect(posted.status()).toBe(201);
    await writer.context.close();

    const { context, page } = await newVisitor({ ...desktop, locale: "zh-CN" });
    await signInAsNewUser(context);
    await page.goto(article);
    const actions = page.locator(".comment-actions").first();
    const reply = actions.getByTestId("reply-toggle");
    const report = actions.getByTestId("report");
    const like = actions.getByTestId("comment-like");
    expect((await reply.innerText()).trim()).toBe("回复");
    expect(await reply.evaluate((element) => getComputedStyle(element).display)).not.toBe("list-item");
    expect(await reply.evaluate((element) => getComputedStyle(element).listStyleType)).toBe("none");
    const centre = async (locator: typeof reply) => {
      const box = (await locator.boundingBox())!;
      return box.y + box.height / 2;
    };
    const size = (locator: typeof reply) => locator.evaluate((element) => getComputedStyle(element).fontSize);
    expect(await size(report)).toBe(await size(reply));
    expect(Math.abs((await centre(report)) - (await centre(reply)))).toBeLessThan(1.5);
    expect(Math.abs((await centre(like)) - (await centre(reply)))).toBeLessThan(1.5);
    await context.close();
  });

  it("draws a cover from the title on the circle's colour for a book without one", async () => {
    const { context, page } = await newVisitor({ ...desktop, locale: "zh-CN" });
    await page.goto("/circles/2?tab=books");
    const cover = page.getByTestId("book-cover-drawn").first();
    const title = (await page.locator(".book-card-title").first().innerText()).trim();
    expect((await cover.innerText()).trim()).toBe(title);
    // The Mathematics circle's colour (app/components/circle-logo.tsx), the title in white.
    expect(await cover.evaluate((element) => getComputedStyle(element).backgroundColor)).toBe("rgb(192, 57, 43)");
    expect(await cover.evaluate((element) => getComputedStyle(element).color)).toBe("rgb(255, 255, 255)");
    await context.close();
  });
});
