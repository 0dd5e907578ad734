import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { closeBrowser, launchBrowser, newVisitor, signInAsNewUser, uniqueName } from "./browser.ts";

beforeAll(launchBrowser);
afterAll(closeBrowser);

const eventually = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 20_000 });

/** React has hydrated the editor and CodeMirror has replaced the textarea. */
async function editorReady(page: Page): Promise<void> {
  await page.locator(".cm-content").waitFor({ timeout: 30_000 });
}

/** Where the field is on screen, and where the sticky header ends. */
function placement(page: Page, selector: string) {
  return page.evaluate((target) => {
    const field = document.querySelector(target)!.getBoundingClientRect();
    const header = document.querySelector(".site-header")!.getBoundingClientRect();
    return { top: field.top, bottom: field.bottom, headerBottom: header.bottom, height: window.innerHeight };
  }, selector);
}

/** Publishing from the bottom of the page with an empty title: the inline message, the title focused and visible below the header. */
async function emptyTitleIsShown(page: Page, message: string): Promise<void> {
  const before = page.url();
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  await eventually(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(100);
  await page.getByTestId("publish").click();
  await eventually(() => page.locator('[data-field-error="writing-title"]').innerText()).toBe(message);
  await eventually(() => page.evaluate(() => document.activeElement?.id)).toBe("writing-title");
  const where = await placement(page, "#writing-title");
  expect(where.top).toBeGreaterThanOrEqual(where.headerBottom);
  expect(where.bottom).toBeLessThanOrEqual(where.height);
  await expect(page.locator("#writing-title").getAttribute("aria-invalid")).resolves.toBe("true");
  // Nothing was posted.
  expect(page.url()).toBe(before);
}

describe("the writing editor (zh)", () => {
  it("shows a missing title inline, focused below the sticky header; continues a series as its next part; saves a draft on request", async () => {
    const { context, page } = await newVisitor({ locale: "zh-CN", viewport: { width: 1280, height: 720 } });
    await signInAsNewUser(context);
    await page.goto("/circles/1/write/article");
    await editorReady(page);
    await emptyTitleIsShown(page, "请输入标题。");
    // Typing a title clears the message on the next submit; the content is checked too.
    await page.locator("#writing-title").fill(uniqueName("草稿"));
    await page.getByTestId("publish").click();
    await eventually(() => page.locator('[data-field-error="writing-content"]').innerText()).toBe("请输入内容。");
    await expect(page.locator('[data-field-error="writing-title"]').count()).resolves.toBe(0);

    // "Save draft" saves at once, beside the autosave state.
    await page.getByTestId("save-draft").click();
    await eventually(() => page.getByTestId("autosave-status").getAttribute("data-state")).toBe("saved");
    await expect(page.getByTestId("autosave-status").innerText()).resolves.toContain("草稿已于");

    // A serialized article: a new series, or one of the author's with the next part's number.
    const { csrftoken } = (await (await context.request.get("/api/get_csrf_token/")).json()) as { csrftoken: string };
    const seriesTitle = uniqueName("连载");
    const first = await context.request.post("/api/circles/1/writings/", {
      headers: { "x-csrftoken": csrftoken },
      data: { title: seriesTitle, content: "第一篇的正文。", type: "serial" },
    });
    expect(first.status()).toBe(201);
    const firstId = ((await first.json()) as { id: number }).id;
    await page.goto("/circles/1/write/article");
    await editorReady(page);
    await expect(page.locator("#writing-series").count()).resolves.toBe(0);
    await page.locator("#writing-type").selectOption("serial");
    await eventually(() => page.getByTestId("series-next-part").innerText()).toBe("本文将作为新连载的第 1 篇。");
    await page.locator("#writing-series").selectOption(String(firstId));
    await eventually(() => page.getByTestId("series-next-part").innerText()).toBe(`本文将作为《${seriesTitle}》的第 2 篇发布。`);
    const partTitle = uniqueName("第二篇");
    await page.locator("#writing-title").fill(partTitle);
    await page.locator(".cm-content").click();
    await page.keyboard.insertText("第二篇的正文。");
    await page.getByTestId("publish").click();
    await page.waitForURL((url) => /^\/circles\/1\/writing\/\d+$/.test(url.pathname));
    const secondId = Number(new URL(page.url()).pathname.split("/").pop());
    const second = (await (await context.request.get(`/api/writings/${secondId}/`)).json()) as {
      title: string;
      series: { id: number; part_number: number };
    };
    expect(second).toMatchObject({ title: partTitle, series: { id: firstId, part_number: 2 } });
    await context.close();
  });
});

describe("the writing editor (en)", () => {
  it("shows a missing title inline in English, focused below the header", async () => {
    const { context, page } = await newVisitor({ locale: "en", viewport: { width: 390, height: 700 } });
    await signInAsNewUser(context);
    await page.goto("/en/circles/1/write/article");
    await editorReady(page);
    await emptyTitleIsShown(page, "Please enter a title.");
    await page.getByTestId("save-draft").click();
    await eventually(() => page.getByTestId("autosave-status").innerText()).toContain("Draft saved");
    await context.close();
  });
});
