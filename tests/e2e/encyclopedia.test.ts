import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { baseURL, closeBrowser, launchBrowser, newVisitor, signInAsNewUser, uniqueName } from "./browser.ts";
import { addCatalog, translator } from "../../common/i18n.ts";
import { localizePath, type Locale } from "../../common/locale.ts";
import zhWritings from "../../common/locales/zh-CN/writings.json" with { type: "json" };
import enWritings from "../../common/locales/en/writings.json" with { type: "json" };
import zhEditor from "../../common/locales/zh-CN/editor.json" with { type: "json" };
import enEditor from "../../common/locales/en/editor.json" with { type: "json" };
import zhEncyclopedia from "../../common/locales/zh-CN/encyclopedia.json" with { type: "json" };
import enEncyclopedia from "../../common/locales/en/encyclopedia.json" with { type: "json" };

addCatalog("writings", { "zh-CN": zhWritings, en: enWritings });
addCatalog("editor", { "zh-CN": zhEditor, en: enEditor });
addCatalog("encyclopedia", { "zh-CN": zhEncyclopedia, en: enEncyclopedia });

beforeAll(launchBrowser);
afterAll(closeBrowser);

const eventually = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 20_000 });

/** The demo entries each language's writer picks (features/encyclopedia/seed.ts): a query, the name it finds. */
const picks: Record<Locale, { query: string; name: string }[]> = {
  "zh-CN": [
    { query: "毕达哥拉斯", name: "勾股定理" },
    { query: "递归", name: "递归" },
  ],
  en: [
    { query: "pythag", name: "Pythagorean theorem" },
    { query: "recursive func", name: "Recursion" },
  ],
};

/** Types into the picker and chooses the option with this name once the search answers. */
async function pick(page: Page, label: string, query: string, name: string): Promise<void> {
  const input = page.getByLabel(label, { exact: true });
  await input.click();
  await input.pressSequentially(query, { delay: 30 });
  const option = page.locator(".ant-select-item-option").filter({ hasText: name }).first();
  await option.waitFor({ timeout: 20_000 });
  await option.click();
}

/** The journey runs in Chinese; a smoke test reads the same pages in English (common/i18n.test.ts checks the catalogs match). */
describe("related encyclopedia entries in the browser (zh-CN)", () => {
  const locale: Locale = "zh-CN";
  const t = translator(locale);
  const path = (to: string) => localizePath(to, locale);

  it("search and pick two entries in the editor → publish → read them as links → open an entry → it reads fully without JavaScript → editing shows them as chips", async () => {
    const writer = await newVisitor({ locale });
    await signInAsNewUser(writer.context);
    const { page } = writer;
    await page.goto(path("/circles/1/write/article"));
    // After hydration the ids box becomes the picker.
    await page.locator(".ant-select").waitFor({ timeout: 30_000 });
    await page.getByLabel(t("editor:editor.title"), { exact: true }).fill(uniqueName("三角形"));
    await page.getByTestId("content-textarea").waitFor({ state: "attached" });
    await page.locator(".cm-content").waitFor({ timeout: 30_000 });
    await page.locator(".cm-content").click();
    await page.keyboard.insertText("Right triangles and self-reference.");
    const label = t("editor:editor.related_entries");
    for (const { query, name } of picks[locale]) await pick(page, label, query, name);
    await page.keyboard.press("Escape");
    await eventually(() => page.getByTestId("related-entries-value").inputValue()).toMatch(/^\d+,\d+$/);
    await expect(page.locator(".ant-select-selector, .ant-select").first().innerText()).resolves.toContain(picks[locale][0]!.name);

    await page.getByTestId("publish").click();
    await page.waitForURL((url) => /\/circles\/1\/writing\/\d+$/.test(url.pathname));
    const readingPath = new URL(page.url()).pathname;
    const related = page.getByTestId("related-entries").locator("a");
    await eventually(() => related.allInnerTexts()).toEqual(picks[locale].map((entry) => entry.name));

    await related.first().click();
    await page.waitForURL((url) => /\/circles\/\d+\/encyclopedia\/\d+$/.test(url.pathname));
    const entryPath = new URL(page.url()).pathname;
    expect(entryPath.startsWith("/circles/")).toBe(true);
    await eventually(() => page.getByTestId("entry-name").innerText()).toContain(picks[locale][0]!.name);
    await page.locator(".rendered-content .katex").first().waitFor();

    // Without JavaScript the entry page is complete: name, aliases, parent link (zh), formula, creator.
    const noScript = await writer.context.browser()!.newContext({ baseURL: baseURL(), locale, javaScriptEnabled: false });
    const plain = await noScript.newPage();
    const response = await plain.goto(entryPath);
    expect(response?.status()).toBe(200);
    expect(await plain.getByTestId("entry-name").innerText()).toContain(picks[locale][0]!.name);
    expect(await plain.locator(".entry-aliases").innerText()).toContain(t("encyclopedia:read.aliases"));
    expect(await plain.locator(".rendered-content .katex").count()).toBeGreaterThan(0);
    expect(await plain.getByTestId("entry-creator").innerText()).toBeTruthy();
    if (locale === "zh-CN") expect(await plain.getByTestId("entry-parent").innerText()).toBe("欧几里得几何");
    expect(await plain.locator("time").first().innerText()).toMatch(/\d/);
    await noScript.close();

    // Editing: the chosen entries come back as chips, by name.
    await page.goto(readingPath);
    await page.getByTestId("edit-writing").click();
    await page.locator(".ant-select").waitFor({ timeout: 30_000 });
    for (const { name } of picks[locale]) await eventually(() => page.locator(".ant-select").first().innerText()).toContain(name);
    await writer.context.close();
  }, 180_000);
});

describe("related encyclopedia entries in the browser (en)", () => {
  const t = translator("en");

  it("a writing's related entries read as links to entry pages that read fully (smoke)", async () => {
    const writer = await newVisitor({ locale: "en" });
    await signInAsNewUser(writer.context);
    const { context, page } = writer;
    const ids: number[] = [];
    for (const { query, name } of picks.en) {
      const { results } = (await (await context.request.get(`/api/encyclopedia/entries/?q=${encodeURIComponent(query)}`)).json()) as {
        results: { id: number; name: string }[];
      };
      ids.push(results.find((entry) => entry.name === name)!.id);
    }
    const csrftoken = (await context.cookies()).find((cookie) => cookie.name === "csrftoken")!.value;
    const created = await context.request.post("/api/circles/1/writings/", {
      headers: { "x-csrftoken": csrftoken },
      data: { title: uniqueName("Triangles "), content: "Right triangles and self-reference.", language: "en", related_entries: ids },
    });
    expect(created.status()).toBe(201);
    await page.goto(`/en${((await created.json()) as { url: string }).url}`);
    const related = page.getByTestId("related-entries").locator("a");
    await eventually(() => related.allInnerTexts()).toEqual(picks.en.map((entry) => entry.name));
    await related.first().click();
    // The English version of a Chinese entry is read under the entry's id: …/{entry_id}/en.
    await page.waitForURL((url) => /^\/en\/circles\/\d+\/encyclopedia\/\d+(\/en)?$/.test(url.pathname));
    await eventually(() => page.getByTestId("entry-name").innerText()).toContain(picks.en[0]!.name);
    expect(await page.locator(".entry-aliases").innerText()).toContain(t("encyclopedia:read.aliases"));
    await page.locator(".rendered-content .katex").first().waitFor();
    await writer.context.close();
  });
});
