import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BrowserContext, Page } from "playwright-core";
import { closeBrowser, hydrated, launchBrowser, newVisitor, signInAsNewUser, uniqueName } from "./browser.ts";

beforeAll(launchBrowser);
afterAll(closeBrowser);

/** A book with one chapter by the context's user, made through the API; the chapter's page. */
async function chapterOf(context: BrowserContext, name: string): Promise<string> {
  const { csrftoken } = (await (await context.request.get("/api/get_csrf_token/")).json()) as { csrftoken: string };
  const headers = { "x-csrftoken": csrftoken };
  const book = (await (await context.request.post("/api/circles/1/books/", { headers, data: { name } })).json()) as { id: number };
  const chapter = await context.request.post(`/api/books/${book.id}/chapters/`, {
    headers,
    data: { title: "第一章", content: "正文。\n" },
  });
  expect(chapter.status()).toBe(201);
  const { id } = (await chapter.json()) as { id: number };
  return `/circles/1/books/${book.id}/chapters/${id}`;
}

const commentWith = (page: Page, text: string) =>
  page.locator("article.comment", { has: page.locator(".comment-body", { hasText: text }) });

describe("comments on a chapter in the browser", () => {
  it("comments on a chapter, completes an @name from the keyboard, likes a comment at once and keeps it (zh)", async () => {
    const writer = await newVisitor({ locale: "zh-CN" });
    const writerAccount = await signInAsNewUser(writer.context);
    const chapterPath = await chapterOf(writer.context, uniqueName("评论之书 "));
    const reader = await newVisitor({ locale: "zh-CN" });
    await signInAsNewUser(reader.context);
    const { page } = reader;
    await page.goto(chapterPath);
    await hydrated(page);
    await expect.poll(() => page.locator("#comments-title").innerText()).toBe("评论（0）");
    await page.evaluate(() => ((window as unknown as { stillHere: boolean }).stillHere = true));

    // The reader follows the writer, so typing "@" and the start of their name offers them first
    // (the run's accounts share a prefix); ↓ moves to the next, ↑ back, Enter inserts the username.
    const { csrftoken } = (await (await reader.context.request.get("/api/get_csrf_token/")).json()) as { csrftoken: string };
    const follow = await reader.context.request.post(`/api/Users/follow/${writerAccount.username}/`, {
      headers: { "x-csrftoken": csrftoken },
    });
    expect(follow.status()).toBeLessThan(300);
    const box = page.locator("#comment-body");
    await box.click();
    // The completion loads on the first focus: typing before it is there would go unheard.
    await expect.poll(() => page.locator("#comment-body-mentions").count()).toBe(1);
    await box.pressSequentially(`谢谢 @${writerAccount.username.slice(0, 5)}`);
    const list = page.locator("#comment-body-mentions");
    const options = list.getByRole("option");
    await expect.poll(() => options.count()).toBeGreaterThan(1);
    await expect.poll(() => box.getAttribute("aria-expanded")).toBe("true");
    await expect.poll(() => options.first().innerText()).toContain(`@${writerAccount.username}`);
    await expect.poll(() => options.first().getAttribute("aria-selected")).toBe("true");
    await box.press("ArrowDown");
    await expect.poll(() => options.nth(1).getAttribute("aria-selected")).toBe("true");
    await expect.poll(() => box.getAttribute("aria-activedescendant")).toBe("comment-body-mentions-1");
    await box.press("ArrowUp");
    await expect.poll(() => options.first().getAttribute("aria-selected")).toBe("true");
    await box.press("Enter");
    await expect.poll(() => box.inputValue()).toBe(`谢谢 @${writerAccount.username} `);
    await expect.poll(() => box.getAttribute("aria-expanded")).toBe("false");
    await box.pressSequentially("写得好");
    await page.getByTestId("comment-submit").click();
    await page.getByTestId("comment-notice").filter({ hasText: "评论成功" }).waitFor();
    const mine = commentWith(page, "写得好");
    await mine.waitFor();
    // The mention is a link to the profile.
    await expect
      .poll(() => mine.locator(`.comment-body a[href="/profile/${writerAccount.username}"]`).innerText())
      .toBe(`@${writerAccount.username}`);
    expect(await page.evaluate(() => (window as unknown as { stillHere?: boolean }).stillHere)).toBe(true);

    // The writer likes the reader's comment: shown at once, kept after a reload.
    await writer.page.goto(chapterPath);
    await hydrated(writer.page);
    const theirs = commentWith(writer.page, "写得好");
    const like = theirs.getByTestId("comment-like");
    await expect.poll(() => like.getAttribute("aria-pressed")).toBe("false");
    // Shown at once; the reload below waits for the server's answer so it reads the stored like.
    const stored = writer.page.waitForResponse(
      (response) => response.request().method() === "POST" && response.url().includes("/reaction"),
    );
    await like.click();
    await expect.poll(() => like.getAttribute("aria-pressed")).toBe("true");
    expect((await stored).status()).toBeLessThan(400);
    await expect.poll(() => theirs.getByTestId("comment-like-count").innerText()).toBe("1");
    await writer.page.reload();
    await expect.poll(() => commentWith(writer.page, "写得好").getByTestId("comment-like").getAttribute("aria-pressed")).toBe("true");
    await expect.poll(() => commentWith(writer.page, "写得好").getByTestId("comment-like-count").innerText()).toBe("1");
    // The reader sees the count too.
    await page.reload();
    await expect.poll(() => commentWith(page, "写得好").getByTestId("comment-like-count").innerText()).toBe("1");

    await writer.context.close();
    await reader.context.close();
  });

  it("comments and sorts on a chapter in English (smoke)", async () => {
    const writer = await newVisitor({ locale: "en" });
    await signInAsNewUser(writer.context);
    const chapterPath = `/en${await chapterOf(writer.context, uniqueName("Comment book "))}`;
    const { page } = writer;
    await page.goto(chapterPath);
    await hydrated(page);
    await expect.poll(() => page.locator("#comments-title").innerText()).toBe("Comments (0)");
    for (const text of ["First thought", "Second thought"]) {
      await page.locator("#comment-body").fill(text);
      await page.getByTestId("comment-submit").click();
      await commentWith(page, text).waitFor();
    }
    await expect.poll(() => page.locator("#comments-title").innerText()).toBe("Comments (2)");
    await page.getByTestId("comment-sort-oldest").click();
    await expect.poll(() => page.locator(".comment-body").first().innerText()).toBe("First thought");
    await expect.poll(() => new URL(page.url()).searchParams.get("comment_sort")).toBe("oldest");
    await writer.context.close();
  });
});
