import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeBrowser, hydrated, launchBrowser, newVisitor, publishArticle, signInAsNewUser, uniqueName } from "./browser.ts";

beforeAll(launchBrowser);
afterAll(closeBrowser);

describe("the creator centre", () => {
  it("counts a published article, lists it in manage content and deletes it after the dialog's question (zh, with JavaScript)", async () => {
    const { context, page } = await newVisitor({ locale: "zh-CN" });
    await signInAsNewUser(context);
    const title = uniqueName("创作中心文章 ");
    await publishArticle(context, title);

    // From the account menu (a plain <details>) to the hub.
    await page.goto("/about");
    await hydrated(page);
    await page.getByTestId("avatar-menu").click();
    await page.getByRole("link", { name: "创作中心" }).first().click();
    await page.waitForURL((url) => url.pathname === "/creator");
    await expect.poll(() => page.getByTestId("creator-content-counts").locator('[data-key="articles"] dd').textContent()).toBe("1");
    await expect.poll(() => page.getByTestId("creator-figures").isVisible()).toBe(true);

    await page.getByRole("link", { name: "管理我的内容", exact: true }).click();
    await page.waitForURL((url) => url.pathname === "/creator/manage/content");
    const row = page.getByTestId("creator-content").locator("tbody tr", { hasText: title });
    await expect.poll(() => row.count()).toBe(1);
    expect(await row.textContent()).toContain("已发布");
    await hydrated(page);

    // Delete asks in a dialog first; cancelling keeps it.
    await row.getByRole("button", { name: `删除《${title}》` }).click();
    const dialog = page.getByRole("dialog");
    await expect.poll(() => dialog.isVisible()).toBe(true);
    expect(await dialog.textContent()).toContain(`确定永久删除《${title}》吗？`);
    await dialog.getByRole("button", { name: "取消" }).click();
    await expect.poll(() => dialog.isVisible()).toBe(false);
    expect(await row.count()).toBe(1);

    await row.getByRole("button", { name: `删除《${title}》` }).click();
    await page.getByRole("dialog").getByRole("button", { name: "删除" }).click();
    await expect.poll(() => page.getByRole("status").first().textContent()).toBe("已删除。");
    await expect.poll(() => page.getByTestId("creator-content").count()).toBe(0);
    expect(await page.textContent("main")).not.toContain(title);
    await context.close();
  });

  it("works without JavaScript in English: the question on the page, then the list with the notice", async () => {
    const { context, page } = await newVisitor({ locale: "en", javaScriptEnabled: false });
    await signInAsNewUser(context);
    const title = uniqueName("Creator desk ");
    await publishArticle(context, title);
    await page.goto("/en/creator");
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Creator centre");
    await page.getByRole("link", { name: "Manage content" }).first().click();
    const row = page.getByTestId("creator-content").locator("tbody tr", { hasText: title });
    expect(await row.count()).toBe(1);
    await row.getByRole("button", { name: `Delete “${title}”` }).click();
    const question = page.getByRole("alertdialog");
    expect(await question.textContent()).toContain(`Delete “${title}” for good? This cannot be undone.`);
    await question.getByRole("button", { name: "Delete" }).click();
    await page.waitForURL((url) => url.searchParams.get("notice") === "deleted");
    expect(await page.getByRole("status").first().textContent()).toBe("Deleted.");
    expect(await page.getByTestId("creator-content").count()).toBe(0);
    await page.goto("/en/creator/manage/comment");
    expect(await page.textContent("main")).toContain("Nobody has commented on your content yet.");
    await context.close();
  });
});
