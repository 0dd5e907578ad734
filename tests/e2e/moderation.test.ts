import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BrowserContext } from "playwright-core";
import { closeBrowser, hydrated, launchBrowser, newVisitor, signInAsNewUser, uniqueName } from "./browser.ts";

beforeAll(launchBrowser);
afterAll(closeBrowser);

async function csrf(context: BrowserContext): Promise<string> {
  return ((await (await context.request.get("/api/get_csrf_token/")).json()) as { csrftoken: string }).csrftoken;
}

/** The context's user founds a public circle (its founder moderates it); its id. */
async function foundCircle(context: BrowserContext, name: string): Promise<number> {
  const response = await context.request.post("/api/circles/", { headers: { "x-csrftoken": await csrf(context) }, data: { name } });
  if (response.status() !== 201) throw new Error(`Creating a circle failed (${response.status()}): ${await response.text()}`);
  return ((await response.json()) as { id: number }).id;
}

async function publishIn(context: BrowserContext, circleId: number, title: string): Promise<string> {
  const response = await context.request.post(`/api/circles/${circleId}/writings/`, {
    headers: { "x-csrftoken": await csrf(context) },
    data: { title, content: "Text that a reader finds objectionable.\n" },
  });
  if (response.status() !== 201) throw new Error(`Publishing failed (${response.status()}): ${await response.text()}`);
  return ((await response.json()) as { url: string }).url;
}

describe("reports and moderation", () => {
  it("a reader likes, favourites into a new folder, shares and reports; the circle's moderator hides it; reporter and author are told (zh)", async () => {
    const moderator = await newVisitor({ locale: "zh-CN" });
    await signInAsNewUser(moderator.context);
    const circleId = await foundCircle(moderator.context, uniqueName("审核圈"));
    const writer = await newVisitor({ locale: "zh-CN" });
    await signInAsNewUser(writer.context);
    const title = uniqueName("Reported ");
    const article = await publishIn(writer.context, circleId, title);

    const reader = await newVisitor({ locale: "zh-CN" });
    await signInAsNewUser(reader.context);
    await reader.context.grantPermissions(["clipboard-read", "clipboard-write"]);
    await reader.page.goto(article);
    await hydrated(reader.page);
    const bar = reader.page.getByTestId("action-bar");
    // Like, then favourite, then file it in a new folder from the favourites page.
    await bar.getByTestId("like").click();
    await expect.poll(() => bar.getByTestId("like").getAttribute("aria-pressed")).toBe("true");
    await bar.getByTestId("favorite").click();
    await expect.poll(() => bar.getByTestId("favorite").getAttribute("aria-pressed")).toBe("true");
    // Share: the link is copied, the button says so.
    const share = bar.getByTestId("share");
    await share.locator("summary").click();
    await share.getByTestId("copy-link").click();
    await expect.poll(() => share.getByTestId("copy-link").textContent()).toBe("已复制");

    await reader.page.goto("/account/store");
    const folderName = uniqueName("读书笔记");
    await reader.page.getByTestId("new-folder").locator("input[name=name]").fill(folderName);
    await reader.page.getByTestId("new-folder").getByRole("button").click();
    await expect.poll(() => reader.page.locator(".store-folders").textContent()).toContain(folderName);
    await reader.page.goto("/account/store");
    const saved = reader.page.getByTestId("favorite-item").filter({ hasText: title });
    await saved.locator("select[name=to]").selectOption({ label: folderName });
    await saved.getByRole("button", { name: "移动" }).click();
    await reader.page.getByRole("link", { name: folderName }).click();
    await expect.poll(() => reader.page.getByTestId("favorites").textContent()).toContain(title);

    await reader.page.goto(article);
    await hydrated(reader.page);
    await reader.page.getByTestId("action-bar").getByTestId("report").click();
    const dialog = reader.page.getByTestId("report-dialog");
    await dialog.getByTestId("reason-misinformation").check();
    await dialog.locator("textarea").fill("与事实不符");
    const url = reader.page.url();
    await dialog.getByTestId("report-submit").click();
    await expect.poll(() => dialog.getByTestId("report-done").textContent()).toContain("举报成功");
    expect(reader.page.url()).toBe(url);
    // Reporting again is refused with the spec's message.
    await dialog.getByTestId("report-close").click();
    await reader.page.getByTestId("action-bar").getByTestId("report").click();
    // No reason is chosen for the reader: the dialog opens with none ticked.
    expect(await reader.page.getByTestId("report-dialog").locator('input[name="reason"]:checked').count()).toBe(0);
    await reader.page.getByTestId("report-dialog").getByTestId("reason-spam").check();
    await reader.page.getByTestId("report-dialog").getByTestId("report-submit").click();
    await expect.poll(() => reader.page.getByTestId("report-dialog").getByRole("alert").textContent()).toContain("请勿重复举报");

    await moderator.page.goto(`/circles/${circleId}/settings/reports`);
    const item = moderator.page.getByTestId("case").filter({ hasText: title });
    await expect.poll(() => item.count()).toBe(1);
    expect(await item.textContent()).toContain("不实信息");
    await item.getByTestId("action-hide").check();
    await item.locator("textarea").fill("不实内容");
    await item.getByTestId("decide").click();
    await expect.poll(() => moderator.page.locator("p.notice[role=status]").textContent()).toContain("已保存处理结果");
    await moderator.page.goto(`/circles/${circleId}/settings/reports?status=decided`);
    const decided = moderator.page.getByTestId("case").filter({ hasText: title });
    await expect.poll(() => decided.getByTestId("case-history").textContent()).toContain("不实内容");

    await writer.page.goto(article);
    await expect.poll(() => writer.page.getByTestId("hidden-notice").textContent()).toContain("已被管理员隐藏");
    const response = await reader.page.goto(article);
    expect(response?.status()).toBe(404);
    // Both are told what was decided, in their system notices, each in their own words.
    await reader.page.goto("/messages/system_notice");
    await expect.poll(() => reader.page.getByTestId("notifications").textContent()).toContain(`你的举报已受理，管理员隐藏了 ${title}`);
    await writer.page.goto("/messages/system_notice");
    const told = writer.page.getByTestId("notification").filter({ hasText: title });
    await expect.poll(() => told.textContent()).toContain("因被举报，管理员隐藏了你的内容");
    expect(await told.textContent()).toContain("不实内容");
    const visitor = await newVisitor({ locale: "zh-CN" });
    await visitor.page.goto(`/circles/${circleId}`);
    expect(await visitor.page.content()).not.toContain(title);
    for (const context of [moderator.context, writer.context, reader.context, visitor.context]) await context.close();
  });

  it("without JavaScript the report is its own page and comes back (en)", async () => {
    const writer = await newVisitor({ locale: "en" });
    await signInAsNewUser(writer.context);
    const circleId = await foundCircle(writer.context, uniqueName("Report circle "));
    const article = `/en${await publishIn(writer.context, circleId, uniqueName("No script report "))}`;
    const reader = await newVisitor({ locale: "en", javaScriptEnabled: false });
    await signInAsNewUser(reader.context);
    await reader.page.goto(article);
    await reader.page.getByTestId("action-bar").getByTestId("report").click();
    await reader.page.waitForURL((url) => url.pathname.endsWith("/report"));
    await reader.page.getByTestId("reason-spam").check();
    await reader.page.getByTestId("report-submit").click();
    await expect.poll(() => reader.page.getByTestId("report-done").textContent()).toContain("Flagged");
    await reader.page.getByRole("link", { name: "Back to the page" }).click();
    await reader.page.waitForURL((url) => url.pathname === article);
    for (const context of [writer.context, reader.context]) await context.close();
  });
});
