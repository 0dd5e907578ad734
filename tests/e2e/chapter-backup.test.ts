import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BrowserContext, Page } from "playwright-core";
import { closeBrowser, launchBrowser, newVisitor, signInAsNewUser, uniqueName } from "./browser.ts";
import { addCatalog, translator } from "../../common/i18n.ts";
import { localizePath } from "../../common/locale.ts";
import zhBooks from "../../common/locales/zh-CN/books.json" with { type: "json" };
import enBooks from "../../common/locales/en/books.json" with { type: "json" };

addCatalog("books", { "zh-CN": zhBooks, en: enBooks });

beforeAll(launchBrowser);
afterAll(closeBrowser);

const eventually = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 15_000 });

/** Waits until React has hydrated the page and CodeMirror has replaced the chapter's textarea. */
async function editorReady(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const heading = document.querySelector("h1");
    return heading !== null && Object.keys(heading).some((key) => key.startsWith("__reactFiber"));
  });
  await page.locator(".cm-content").waitFor({ timeout: 30_000 });
}

/** The chapter backups this browser keeps. */
const backups = (page: Page) => page.evaluate(() => Object.keys(window.localStorage).filter((key) => key.startsWith("circles.backup.")));

/** Makes the next posts of the chapter form fail as the network or the server would. */
async function failPosts(page: Page, pathPart: string, how: "abort" | "500"): Promise<() => Promise<void>> {
  const matches = (url: URL) => url.pathname.includes(pathPart);
  await page.route(matches, async (route) => {
    if (route.request().method() !== "POST") return route.fallback();
    if (how === "abort") return route.abort("internetdisconnected");
    return route.fulfill({ status: 500, contentType: "text/plain", body: "Internal Server Error" });
  });
  return () => page.unroute(matches);
}

async function authorWithBook(locale: "zh-CN" | "en"): Promise<{ page: Page; context: BrowserContext; bookId: number; csrftoken: string }> {
  const { page, context } = await newVisitor({ locale });
  await signInAsNewUser(context);
  const { csrftoken } = (await (await context.request.get("/api/get_csrf_token/")).json()) as { csrftoken: string };
  const book = (await (
    await context.request.post("/api/circles/1/books/", { headers: { "x-csrftoken": csrftoken }, data: { name: uniqueName("backup ") } })
  ).json()) as { id: number };
  return { page, context, bookId: book.id, csrftoken };
}

describe("the chapter editor's browser backup", () => {
  it("a publish lost on the network keeps the chapter: reopening offers it → restore → publish → the backup is gone", async () => {
    const t = translator("zh-CN");
    const { page, bookId } = await authorWithBook("zh-CN");
    const addPath = localizePath(`/circles/1/write/book/${bookId}/add-chapter`, "zh-CN");
    const title = "断网的一章";
    const text = "## 第一节\n\n这段文字在发布时遇到了断网。";

    await page.goto(addPath);
    await editorReady(page);
    expect(await page.getByTestId("chapter-backup").count()).toBe(0);
    await page.getByLabel(t("books:chapter_editor.title")).fill(title);
    await page.locator(".cm-content").click();
    await page.keyboard.insertText(text);
    const restoreNetwork = await failPosts(page, "/add-chapter", "abort");
    const failed = page.waitForEvent("requestfailed", (request) => request.method() === "POST");
    await page.getByTestId("chapter-publish").click();
    await failed;
    await restoreNetwork();
    expect(await backups(page)).toHaveLength(1);

    // Reopening the form: the server has nothing, the browser offers the text; nothing is filled in by itself.
    await page.goto(addPath);
    await editorReady(page);
    const notice = page.getByTestId("chapter-backup");
    await notice.waitFor();
    expect(await notice.getByRole("heading").textContent()).toBe(t("books:chapter_editor.backup_title"));
    expect(await notice.locator("pre").textContent()).toBe(text);
    expect(await page.getByLabel(t("books:chapter_editor.title")).inputValue()).toBe("");
    expect(await page.getByTestId("content-textarea").inputValue()).toBe("");

    await notice.getByRole("button", { name: t("books:chapter_editor.backup_restore") }).click();
    await eventually(() => page.getByTestId("chapter-backup").count()).toBe(0);
    expect(await page.getByTestId("chapter-backup-restored").textContent()).toBe(t("books:chapter_editor.backup_restored_new"));
    expect(await page.getByLabel(t("books:chapter_editor.title")).inputValue()).toBe(title);
    expect(await page.getByTestId("content-textarea").inputValue()).toBe(text);
    expect(await page.locator(".cm-content").innerText()).toContain("这段文字在发布时遇到了断网。");

    await page.getByTestId("chapter-publish").click();
    await page.waitForURL((url) => url.pathname === localizePath(`/circles/1/write/book/${bookId}`, "zh-CN"));
    await eventually(() => page.locator(".notice").textContent()).toBe(t("books:chapter_editor.added", { number: 1 }));
    await eventually(() => backups(page)).toEqual([]);

    // A new chapter's form opens empty, with no offer.
    await page.goto(addPath);
    await editorReady(page);
    expect(await page.getByTestId("chapter-backup").count()).toBe(0);
    expect(await page.getByTestId("content-textarea").inputValue()).toBe("");
  });

  it("(en) a save answered by a server error keeps the edit: reopening offers it → discard keeps the saved chapter and removes the backup; a successful save leaves none", async () => {
    const t = translator("en");
    const { page, context, bookId, csrftoken } = await authorWithBook("en");
    const chapter = (await (
      await context.request.post(`/api/books/${bookId}/chapters/`, {
        headers: { "x-csrftoken": csrftoken },
        data: { title: "Saved title", content: "Saved text." },
      })
    ).json()) as { id: number };
    const editPath = localizePath(`/circles/1/write/book/${bookId}/chapter/${chapter.id}`, "en");

    await page.goto(editPath);
    await editorReady(page);
    await page.getByLabel(t("books:chapter_editor.title")).fill("Edited title");
    await page.locator(".cm-content").click();
    await page.keyboard.press("End");
    await page.keyboard.insertText(" An edit the server never stored.");
    const restoreServer = await failPosts(page, `/chapter/${chapter.id}`, "500");
    const answered = page.waitForResponse((response) => response.request().method() === "POST" && response.status() === 500);
    await page.getByTestId("chapter-publish").click();
    await answered;
    await restoreServer();

    await page.goto(editPath);
    await editorReady(page);
    const notice = page.getByTestId("chapter-backup");
    await notice.waitFor();
    expect(await notice.locator("p").first().textContent()).toContain("This browser kept text of this chapter");
    expect(await notice.locator("strong").textContent()).toBe("Edited title");
    expect(await notice.locator("pre").textContent()).toBe("Saved text. An edit the server never stored.");
    // The server's text stays in the form until the writer chooses.
    expect(await page.getByLabel(t("books:chapter_editor.title")).inputValue()).toBe("Saved title");
    expect(await page.getByTestId("content-textarea").inputValue()).toBe("Saved text.");

    await notice.getByRole("button", { name: t("books:chapter_editor.backup_discard") }).click();
    await eventually(() => page.getByTestId("chapter-backup").count()).toBe(0);
    expect(await backups(page)).toEqual([]);
    expect(await page.getByTestId("content-textarea").inputValue()).toBe("Saved text.");

    await page.reload();
    await editorReady(page);
    expect(await page.getByTestId("chapter-backup").count()).toBe(0);
    expect(await page.getByLabel(t("books:chapter_editor.title")).inputValue()).toBe("Saved title");

    // An edit saved successfully leaves no backup behind.
    await page.getByLabel(t("books:chapter_editor.title")).fill("Second title");
    await eventually(() => backups(page)).toHaveLength(1);
    await page.getByTestId("chapter-publish").click();
    await eventually(() => page.locator(".notice").textContent()).toBe(t("books:chapter_editor.saved"));
    await eventually(() => backups(page)).toEqual([]);
    await page.reload();
    await editorReady(page);
    expect(await page.getByTestId("chapter-backup").count()).toBe(0);
    expect(await page.getByLabel(t("books:chapter_editor.title")).inputValue()).toBe("Second title");
  });
});
