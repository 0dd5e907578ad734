import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { closeBrowser, hydrated, launchBrowser, newVisitor, publishArticle, signInAsNewUser } from "./browser.ts";

const poll = (read: () => Promise<string | null>) => expect.poll(read, { timeout: 20_000 });
/**
 * The bell's number, read in one step without waiting: the badge leaves the DOM when the count is
 * 0, so "is it there?" followed by "what does it say?" could wait on a badge that has just gone.
 */
const bellCount = (page: Page) => async () => (await page.getByTestId("unread-total").allTextContents())[0] ?? "0";

describe("live messages", () => {
  beforeAll(launchBrowser);
  afterAll(closeBrowser);

  it("raises the bell in every open tab without a reload when followed, empties the category when opened, and toasts a comment (zh)", async () => {
    const star = await newVisitor();
    const account = await signInAsNewUser(star.context);
    // Seven tabs: one holds the stream, the others hear it through the BroadcastChannel.
    const tabs: Page[] = [star.page];
    for (let index = 1; index < 7; index++) tabs.push(await star.context.newPage());
    for (const tab of tabs) {
      await tab.goto("/circles");
      await hydrated(tab);
    }
    expect(await bellCount(tabs[0]!)()).toBe("0");

    const fan = await newVisitor();
    await signInAsNewUser(fan.context);
    const { csrftoken } = (await (await fan.context.request.get("/api/get_csrf_token/")).json()) as { csrftoken: string };
    expect(
      (await fan.context.request.post(`/api/Users/follow/${account.username}/`, { headers: { "x-csrftoken": csrftoken } })).status(),
    ).toBe(200);
    for (const tab of tabs) await poll(bellCount(tab)).toBe("1");

    await tabs[0]!.goto("/messages/like_attention");
    await poll(() => tabs[0]!.getByTestId("notifications").textContent()).toContain("关注了你");
    // Reading the category (likes and follows) empties the bell in every tab, the reading one and
    // the six that hear it from the stream's holder or the BroadcastChannel.
    for (const tab of tabs) await poll(bellCount(tab)).toBe("0");

    // A comment on the star's article arrives as a toast with its link.
    const path = await publishArticle(star.context, `实时消息测试 ${Date.now()}`);
    const writingId = /\/writing\/(\d+)/.exec(path)![1]!;
    const posted = await fan.context.request.post(`/api/writings/${writingId}/comments/`, {
      headers: { "x-csrftoken": csrftoken },
      data: { body: "第一条评论" },
    });
    expect(posted.status()).toBe(201);
    await poll(() => tabs[1]!.getByTestId("live-toast").textContent()).toContain("评论了");
    await star.context.close();
    await fan.context.close();
  });

  it("raises the bell live in English too", async () => {
    const star = await newVisitor({ locale: "en" });
    const account = await signInAsNewUser(star.context);
    await star.page.goto("/en/circles");
    await hydrated(star.page);
    const fan = await newVisitor();
    await signInAsNewUser(fan.context);
    const { csrftoken } = (await (await fan.context.request.get("/api/get_csrf_token/")).json()) as { csrftoken: string };
    await fan.context.request.post(`/api/Users/follow/${account.username}/`, { headers: { "x-csrftoken": csrftoken } });
    await poll(bellCount(star.page)).toBe("1");
    await star.context.close();
    await fan.context.close();
  });
});
