import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BrowserContext, Page } from "playwright-core";
import { closeBrowser, launchBrowser, newVisitor, signInAsNewUser, uniqueName, seriousViolations, hydrated } from "./browser.ts";
import { testPng } from "../support/images.ts";
import { addCatalog, translator } from "../../common/i18n.ts";
import { localizePath, type Locale } from "../../common/locale.ts";
import zhBooks from "../../common/locales/zh-CN/books.json" with { type: "json" };
import enBooks from "../../common/locales/en/books.json" with { type: "json" };
import zhCircles from "../../common/locales/zh-CN/circles.json" with { type: "json" };
import enCircles from "../../common/locales/en/circles.json" with { type: "json" };
import zhEditor from "../../common/locales/zh-CN/editor.json" with { type: "json" };
import enEditor from "../../common/locales/en/editor.json" with { type: "json" };
import zhErrors from "../../common/locales/zh-CN/errors.json" with { type: "json" };
import enErrors from "../../common/locales/en/errors.json" with { type: "json" };

addCatalog("books", { "zh-CN": zhBooks, en: enBooks });
addCatalog("circles", { "zh-CN": zhCircles, en: enCircles });
addCatalog("editor", { "zh-CN": zhEditor, en: enEditor });
addCatalog("errors", { "zh-CN": zhErrors, en: enErrors });

beforeAll(launchBrowser);
afterAll(closeBrowser);

/** Server round trips on a busy machine take a while (the live preview renders on the server): wait up to 30 s for the page to show a change. */
const eventually = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 30_000 });

/** CodeMirror (loaded after hydration, on write pages only) has replaced the chapter's textarea. */
async function markdownEditorReady(page: Page): Promise<void> {
  await page.locator(".cm-content").waitFor({ timeout: 30_000 });
}

/** Types into CodeMirror at its cursor. */
async function typeMarkdown(page: Page, text: string): Promise<void> {
  await page.locator(".cm-content").click();
  await page.keyboard.insertText(text);
}

/** The chapter list of the write page as [number, title] pairs. */
async function managedChapters(page: Page): Promise<[number, string][]> {
  return page.$$eval(".chapter-list-manage li", (items) =>
    items.map(
      (item) => [Number(item.getAttribute("data-number")), item.querySelector(".chapter-manage-name")!.textContent!] as [number, string],
    ),
  );
}

/** A signed-in author's book (made through the API) and a way to change it, as `context`'s user. */
async function bookOf(context: BrowserContext, name: string, chapters: string[] = []) {
  const { csrftoken } = (await (await context.request.get("/api/get_csrf_token/")).json()) as { csrftoken: string };
  const headers = { "x-csrftoken": csrftoken };
  const book = (await (await context.request.post("/api/circles/1/books/", { headers, data: { name } })).json()) as { id: number };
  for (const title of chapters)
    expect(
      (await context.request.post(`/api/books/${book.id}/chapters/`, { headers, data: { title, content: `$x^2$ ${title}` } })).status(),
    ).toBe(201);
  const setState = async (state: "completed" | "updating") =>
    expect((await context.request.patch(`/api/books/${book.id}/`, { headers, data: { state } })).status()).toBe(200);
  return { id: book.id, setState };
}

/**
 * The book journey runs in Chinese, with a smoke test through the same pages in English; the
 * chapter editor with JavaScript runs in English, without it in Chinese (common/i18n.test.ts checks
 * the catalogs match).
 */
describe("books in the browser (zh-CN)", () => {
  const locale: Locale = "zh-CN";
  const t = translator(locale);
  const path = (to: string) => localizePath(to, locale);
  const titles = ["启程", "长路", "抵达"];

  it("write a book with three chapters → complete → resume updating → reorder by keyboard → delete a chapter → reorder by dragging → read it without JavaScript", async () => {
    const author = await newVisitor({ locale });
    await signInAsNewUser(author.context);
    const name = uniqueName("远航");

    // From the circle's books tab to the new-book form.
    await author.page.goto(`${path("/circles/1")}?tab=books`);
    await hydrated(author.page);
    await author.page.getByRole("link", { name: t("books:list.write_book") }).click();
    await author.page.waitForURL((url) => url.pathname === path("/circles/1/write/book"));
    await hydrated(author.page);
    await author.page.getByLabel(t("books:write.name")).fill(name);
    await author.page.getByLabel(t("books:write.description")).fill("三章的旅程。");
    await author.page.getByRole("button", { name: t("books:write.create") }).click();
    await author.page.waitForURL((url) => /\/write\/book\/\d+$/.test(url.pathname));
    await hydrated(author.page);
    const bookId = Number(/\/write\/book\/(\d+)$/.exec(new URL(author.page.url()).pathname)![1]);
    await eventually(() => author.page.locator(".notice").textContent()).toBe(t("books:write.created"));

    // Three chapters in the CodeMirror editor; the first is previewed live (rendered on the server, math included) before it is published.
    for (const [index, title] of titles.entries()) {
      await author.page.getByRole("link", { name: t("books:write.add_chapter") }).click();
      await author.page.waitForURL((url) => url.pathname.endsWith("/add-chapter"));
      await hydrated(author.page);
      await markdownEditorReady(author.page);
      await author.page.getByLabel(t("books:chapter_editor.title")).fill(title);
      await typeMarkdown(author.page, `## ${title}\n\n正文 ${index + 1}: $e^{i\\pi} + 1 = 0$`);
      if (index === 0) {
        await eventually(() => author.page.getByTestId("preview").locator(".katex").count()).toBeGreaterThan(0);
        expect(await author.page.getByLabel(t("books:chapter_editor.title")).inputValue()).toBe(title);
      }
      await author.page.getByRole("button", { name: t("books:chapter_editor.publish") }).click();
      await author.page.waitForURL((url) => new RegExp(`/write/book/${bookId}$`).test(url.pathname));
      await eventually(() => author.page.locator(".notice").textContent()).toBe(t("books:chapter_editor.added", { number: index + 1 }));
    }
    await hydrated(author.page);
    expect(await managedChapters(author.page)).toEqual(titles.map((title, index) => [index + 1, title]));

    // Updating → Completed after the yes/no question, with the spec's message.
    await author.page.getByRole("button", { name: t("books:write.complete") }).click();
    const completeDialog = author.page.getByRole("dialog", { name: t("books:write.complete_question") });
    await completeDialog.getByRole("button", { name: t("books:write.yes") }).click();
    await eventually(() => author.page.locator(".notice").textContent()).toBe(t("books:write.completed_notice"));
    await eventually(() => author.page.getByTestId("book-state").textContent()).toBe(
      t("books:write.state_current", { state: t("books:state.completed") }),
    );
    expect(await author.page.getByRole("link", { name: t("books:write.add_chapter") }).count()).toBe(0);

    // Completed → Updating after "Are you sure…?".
    await author.page.getByRole("button", { name: t("books:write.resume") }).click();
    const resumeDialog = author.page.getByRole("dialog", { name: t("books:write.resume_question") });
    await resumeDialog.getByRole("button", { name: t("books:write.confirm") }).click();
    await eventually(() => author.page.getByTestId("book-state").textContent()).toBe(
      t("books:write.state_current", { state: t("books:state.updating") }),
    );
    await eventually(() => author.page.getByRole("link", { name: t("books:write.add_chapter") }).count()).toBe(1);

    // Reorder by keyboard: the first chapter moves down one place; focus stays on its move button.
    const down = author.page.getByRole("button", { name: t("books:write.move_down_label", { number: 1, title: titles[0] }) });
    await down.focus();
    await author.page.keyboard.press("Enter");
    await eventually(() => managedChapters(author.page)).toEqual([
      [1, titles[1]],
      [2, titles[0]],
      [3, titles[2]],
    ]);
    await eventually(() => author.page.evaluate(() => document.activeElement?.closest("li")?.getAttribute("data-number"))).toBe("2");

    // Delete the (new) first chapter after the irreversible-deletion question: the others renumber.
    await author.page.getByRole("button", { name: t("books:write.delete_chapter_label", { number: 1, title: titles[1] }) }).click();
    const deleteDialog = author.page.getByRole("dialog", {
      name: t("books:write.delete_chapter_question", { number: 1, title: titles[1] }),
    });
    await deleteDialog.getByRole("button", { name: t("books:write.delete_forever") }).click();
    await eventually(() => managedChapters(author.page)).toEqual([
      [1, titles[0]],
      [2, titles[2]],
    ]);

    // Reorder by dragging: the second chapter dropped on the first, then back.
    await author.page
      .locator('.chapter-list-manage li[data-number="2"]')
      .dragTo(author.page.locator('.chapter-list-manage li[data-number="1"]'));
    await eventually(() => managedChapters(author.page)).toEqual([
      [1, titles[2]],
      [2, titles[0]],
    ]);
    await author.page
      .locator('.chapter-list-manage li[data-number="2"]')
      .dragTo(author.page.locator('.chapter-list-manage li[data-number="1"]'));
    await eventually(() => managedChapters(author.page)).toEqual([
      [1, titles[0]],
      [2, titles[2]],
    ]);
    await author.context.close();

    // A reader without JavaScript: the book page, a chapter, next; under the wrong circle it is redirected.
    const reader = await newVisitor({ locale, javaScriptEnabled: false });
    const response = await reader.page.goto(path(`/circles/2/books/${bookId}`));
    expect(response?.status()).toBe(200);
    expect(new URL(reader.page.url()).pathname).toBe(path(`/circles/1/books/${bookId}`));
    expect(await reader.page.locator("h1").textContent()).toBe(name);
    expect(await reader.page.locator(".book-state-badge").first().textContent()).toBe(t("books:state.updating"));
    expect(await reader.page.getByTestId("latest-chapter").textContent()).toBe(
      t("books:read.chapter_heading", { number: 2, title: titles[2] }),
    );
    const jsonLd = JSON.parse((await reader.page.locator('script[type="application/ld+json"]').textContent())!);
    expect(jsonLd).toMatchObject({
      "@type": "Book",
      name,
      hasPart: [
        { position: 1, name: titles[0] },
        { position: 2, name: titles[2] },
      ],
    });
    expect(await reader.page.locator('link[rel="canonical"]').getAttribute("href")).toMatch(
      new RegExp(`${path(`/circles/1/books/${bookId}`).replace(/\//g, "\\/")}$`),
    );
    await reader.page.getByRole("link", { name: t("books:read.start_reading") }).click();
    await reader.page.waitForURL((url) => url.pathname.includes("/chapters/"));
    expect(await reader.page.locator("h1").textContent()).toBe(t("books:read.chapter_heading", { number: 1, title: titles[0] }));
    expect(await reader.page.locator(".rendered-content .katex").count()).toBeGreaterThan(0);
    await reader.page
      .getByRole("link", { name: `${t("books:read.next")} →` })
      .first()
      .click();
    await reader.page.waitForURL((url) => url.pathname.includes("/chapters/"));
    expect(await reader.page.locator("h1").textContent()).toBe(t("books:read.chapter_heading", { number: 2, title: titles[2] }));
    expect(await reader.page.getByRole("link", { name: `${t("books:read.next")} →` }).count()).toBe(0);
    await reader.context.close();
  });
});

describe("books in the browser (en)", () => {
  const t = translator("en");

  it("manages a book (complete after the question) and reads it without JavaScript (smoke)", async () => {
    const author = await newVisitor({ locale: "en" });
    await signInAsNewUser(author.context);
    const name = uniqueName("Voyage ");
    const book = await bookOf(author.context, name, ["Departure", "Arrival"]);
    const { page } = author;
    await page.goto(`/en/circles/1/write/book/${book.id}`);
    await hydrated(page);
    expect(await managedChapters(page)).toEqual([
      [1, "Departure"],
      [2, "Arrival"],
    ]);
    await page.getByRole("button", { name: t("books:write.complete") }).click();
    await page
      .getByRole("dialog", { name: t("books:write.complete_question") })
      .getByRole("button", { name: t("books:write.yes") })
      .click();
    await eventually(() => page.locator(".notice").textContent()).toBe(t("books:write.completed_notice"));
    await author.context.close();

    const reader = await newVisitor({ locale: "en", javaScriptEnabled: false });
    expect((await reader.page.goto(`/en/circles/1/books/${book.id}`))?.status()).toBe(200);
    expect(await reader.page.locator("h1").textContent()).toBe(name);
    expect(await reader.page.locator(".book-state-badge").first().textContent()).toBe(t("books:state.completed"));
    expect(await reader.page.getByTestId("latest-chapter").textContent()).toBe(
      t("books:read.chapter_heading", { number: 2, title: "Arrival" }),
    );
    await reader.page.getByRole("link", { name: t("books:read.start_reading") }).click();
    await reader.page.waitForURL((url) => url.pathname.includes("/chapters/"));
    expect(await reader.page.locator("h1").textContent()).toBe(t("books:read.chapter_heading", { number: 1, title: "Departure" }));
    expect(await reader.page.locator(".rendered-content .katex").count()).toBeGreaterThan(0);
    await reader.context.close();
  });
});

describe("the chapter editor with JavaScript (en)", () => {
  const locale: Locale = "en";
  const t = translator(locale);
  const path = (to: string) => localizePath(to, locale);

  it("writes a chapter in CodeMirror (toolbar formula and code, an image) → a failed save keeps the text → publishes and renders; CodeMirror stays off reading pages", async () => {
    const author = await newVisitor({ locale });
    await signInAsNewUser(author.context);
    const { page, context } = author;
    const book = await bookOf(context, uniqueName("Notes "));
    const setState = book.setState;
    const writePath = path(`/circles/1/write/book/${book.id}`);

    await page.goto(`${writePath}/add-chapter`);
    await hydrated(page);
    await markdownEditorReady(page);
    // Live preview replaces the server's "Preview" button.
    expect(await page.getByRole("button", { name: t("books:chapter_editor.preview"), exact: true }).count()).toBe(0);
    const title = "Formulas and code";
    await page.getByLabel(t("books:chapter_editor.title")).fill(title);
    await typeMarkdown(page, "Euler: ");
    // The formula button wraps "E = mc^2", selected, in dollars: typing replaces it.
    await page.getByTestId("tool-math").click();
    await page.keyboard.insertText("e^{i\\pi} + 1 = 0");
    await page.keyboard.press("End");
    await page.keyboard.insertText("\n");
    await page.getByTestId("tool-code").click();
    await page.keyboard.insertText("print(1 + 1)");
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("ArrowDown");
    await page.getByTestId("tool-list").click();
    await page.getByTestId("tool-image").setInputFiles({ name: "figure.png", mimeType: "image/png", buffer: await testPng(120, 80) });
    await eventually(() => page.getByTestId("content-textarea").inputValue()).toMatch(/!\[figure\]\(\/attach\/[\w-]+\)/);
    const text = await page.getByTestId("content-textarea").inputValue();
    expect(text).toContain("$e^{i\\pi} + 1 = 0$");
    expect(text).toContain("```\nprint(1 + 1)\n```");
    expect(text).toContain(`- ${t("editor:editor.list_item")}`);
    await page.getByTestId("preview").locator(".katex").first().waitFor();
    await page.getByTestId("preview").locator("pre.shiki").first().waitFor();
    expect(await page.evaluate(() => performance.getEntriesByType("resource").some((entry) => /codemirror/i.test(entry.name)))).toBe(true);

    // The book is completed meanwhile: publishing fails with the localized message and nothing typed is lost.
    await setState("completed");
    await page.getByTestId("chapter-publish").click();
    await eventually(() => page.locator(".form-alert").textContent()).toBe(t("errors:book_completed"));
    expect(await page.getByTestId("content-textarea").inputValue()).toBe(text);
    expect(await page.locator(".cm-content").innerText()).toContain("print(1 + 1)");
    expect(await page.getByLabel(t("books:chapter_editor.title")).inputValue()).toBe(title);
    await setState("updating");
    await page.getByTestId("chapter-publish").click();
    await page.waitForURL((url) => url.pathname === writePath);
    await eventually(() => page.locator(".notice").textContent()).toBe(t("books:chapter_editor.added", { number: 1 }));

    // It reads with the formula, the code and the image; the reading page never loads CodeMirror.
    await page.goto(path(`/circles/1/books/${book.id}`));
    await hydrated(page);
    await page.getByRole("link", { name: t("books:read.start_reading") }).click();
    await page.waitForURL((url) => url.pathname.includes("/chapters/"));
    await hydrated(page);
    const chapterPath = new URL(page.url()).pathname;
    await page.goto(chapterPath);
    await hydrated(page);
    expect(await page.locator("h1").textContent()).toBe(t("books:read.chapter_heading", { number: 1, title }));
    expect(await page.locator(".rendered-content .katex").count()).toBeGreaterThan(0);
    expect(await page.locator(".rendered-content pre.shiki").count()).toBe(1);
    expect(await page.locator('.rendered-content img[src^="/attach/"]').count()).toBe(1);
    expect(await page.evaluate(() => performance.getEntriesByType("resource").some((entry) => /codemirror/i.test(entry.name)))).toBe(false);
    expect(await page.locator(".cm-content").count()).toBe(0);
    await context.close();
  }, 180_000);
});

describe("the chapter editor without JavaScript (zh-CN)", () => {
  const locale: Locale = "zh-CN";
  const t = translator(locale);
  const path = (to: string) => localizePath(to, locale);

  it("is a plain form: a server-rendered preview, the text kept on an error, then published and read", async () => {
    const noScript = await newVisitor({ locale, javaScriptEnabled: false });
    await signInAsNewUser(noScript.context);
    const book = await bookOf(noScript.context, uniqueName("笔记"), ["第一章"]);
    const writePath = path(`/circles/1/write/book/${book.id}`);
    const plain = noScript.page;
    await plain.goto(`${writePath}/add-chapter`);
    expect(await plain.locator(".cm-content").count()).toBe(0);
    const plainText = "## 无脚本\n\n平方：$x^2$\n\n```js\nconsole.log(2)\n```";
    await plain.locator('textarea[name="content"]').fill(plainText);
    await plain.getByRole("button", { name: t("books:chapter_editor.preview"), exact: true }).click();
    await plain.getByTestId("preview").locator(".katex").first().waitFor();
    expect(await plain.locator('textarea[name="content"]').inputValue()).toBe(plainText);
    await plain.getByRole("button", { name: t("books:chapter_editor.publish") }).click();
    expect(await plain.locator('[data-field-error="chapter-title"]').textContent()).toBe(t("books:validation.title_required"));
    expect(await plain.locator('textarea[name="content"]').inputValue()).toBe(plainText);
    const plainTitle = "无脚本一章";
    await plain.getByLabel(t("books:chapter_editor.title")).fill(plainTitle);
    await plain.getByRole("button", { name: t("books:chapter_editor.publish") }).click();
    await plain.waitForURL((url) => url.pathname === writePath);
    expect(await plain.locator(".notice").textContent()).toBe(t("books:chapter_editor.added", { number: 2 }));
    await plain.goto(path(`/circles/1/books/${book.id}`));
    await plain
      .getByRole("link", { name: new RegExp(plainTitle) })
      .first()
      .click();
    await plain.waitForURL((url) => url.pathname.includes("/chapters/"));
    expect(await plain.locator("h1").textContent()).toBe(t("books:read.chapter_heading", { number: 2, title: plainTitle }));
    expect(await plain.locator(".rendered-content .katex").count()).toBeGreaterThan(0);
    expect(await plain.locator(".rendered-content pre.shiki").count()).toBe(1);
    await noScript.context.close();
  }, 120_000);
});

describe("book pages pass axe-core (no serious or critical violation)", () => {
  for (const colorScheme of ["light", "dark"] as const) {
    it(`the demo book, a chapter and the book editor (${colorScheme})`, async () => {
      const { context, page } = await newVisitor({ colorScheme, bypassCSP: true });
      await signInAsNewUser(context);
      const list = (await (await context.request.get("/api/circles/2/books/")).json()) as {
        books: { id: number; circle_id: number; latest_chapter: { id: number } }[];
      };
      const demo = list.books[0]!;
      for (const path of [
        `/circles/2/books/${demo.id}`,
        `/en/circles/2/books/${demo.id}/chapters/${demo.latest_chapter.id}`,
        "/circles/2?tab=books",
      ]) {
        expect((await page.goto(path))?.status(), path).toBe(200);
        expect(await seriousViolations(page), path).toEqual([]);
      }
      // A book of one's own, to see the editor and the chapter editor.
      const { csrftoken } = (await (await context.request.get("/api/get_csrf_token/")).json()) as { csrftoken: string };
      const created = (await (
        await context.request.post("/api/circles/1/books/", { headers: { "x-csrftoken": csrftoken }, data: { name: "Axe" } })
      ).json()) as { id: number };
      await context.request.post(`/api/books/${created.id}/chapters/`, {
        headers: { "x-csrftoken": csrftoken },
        data: { title: "One", content: "Text" },
      });
      for (const path of [
        `/en/circles/1/write/book/${created.id}`,
        `/circles/1/write/book/${created.id}/add-chapter`,
        "/en/circles/1/write/book",
      ]) {
        expect((await page.goto(path))?.status(), path).toBe(200);
        expect(await seriousViolations(page), path).toEqual([]);
      }
      await context.close();
    }, 120_000);
  }
});
