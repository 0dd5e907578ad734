import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeBrowser, launchBrowser, newVisitor, signInAsNewUser } from "./browser.ts";

beforeAll(launchBrowser);
afterAll(closeBrowser);

describe("a profile's actions", () => {
  it("Follow and Message are primary buttons side by side; Block and Report wait in a 'more' menu", async () => {
    const { context, page } = await newVisitor({ locale: "zh-CN", viewport: { width: 1280, height: 900 } });
    await signInAsNewUser(context);
    await page.goto("/profile/creator");
    const follow = page.getByTestId("follow-button");
    const message = page.getByTestId("start-chat");
    const primary = (locator: typeof follow) => locator.evaluate((element) => getComputedStyle(element).backgroundColor);
    expect(await primary(message)).toBe(await primary(follow));
    expect(await primary(follow)).not.toBe("rgba(0, 0, 0, 0)");
    const [followBox, messageBox] = [(await follow.boundingBox())!, (await message.boundingBox())!];
    expect(Math.abs(followBox.y - messageBox.y)).toBeLessThan(2);

    const more = page.getByTestId("profile-more");
    const block = more.getByTestId("profile-block");
    const report = more.getByTestId("report");
    expect(await block.isVisible()).toBe(false);
    expect(await report.isVisible()).toBe(false);
    await more.locator("summary").click();
    expect(await block.textContent()).toBe("拉黑");
    expect(await block.isVisible()).toBe(true);
    expect(await report.isVisible()).toBe(true);
    expect(await more.locator("summary").getAttribute("aria-label")).toBe("更多操作");
    await context.close();
  });
});
