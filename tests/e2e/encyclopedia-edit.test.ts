import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testPng } from "../support/images.ts";
import { closeBrowser, hydrated, launchBrowser, newVisitor, signInAsNewUser, uniqueName } from "./browser.ts";

beforeAll(launchBrowser);
afterAll(closeBrowser);

/**
 * The entry editor in Chinese: create with an alias, a parent and two cited references, switch
 * the citation style, edit, diff the first and last revision, revert; then the English version,
 * the "changed since" notice in the English interface, and Cite this (copy BibTeX).
 */
describe("writing and editing an encyclopedia entry (zh-CN)", () => {
  it("creates an entry, edits it, compares revisions and reverts, adds its English version and cites it", async () => {
    const { context, page } = await newVisitor();
    await signInAsNewUser(context);
    // The parent to pick, made through the API.
    const { csrftoken } = (await (await context.request.get("/api/get_csrf_token/")).json()) as { csrftoken: string };
    const parentName = uniqueName("几何");
    const madeParent = await context.request.post("/api/circles/1/encyclopedia/entries/", {
      headers: { "x-csrftoken": csrftoken },
      data: { name: parentName, language: "zh-CN", content: "几何学。" },
    });
    expect(madeParent.status()).toBe(201);
    await page.goto("/circles/1/encyclopedia/write");
    await hydrated(page);
    await page.locator(".cm-content").waitFor({ timeout: 30_000 });
    const name = uniqueName("勾股定理");
    await page.getByTestId("entry-name-input").fill(name);
    await page.getByTestId("entry-aliases-input").fill(uniqueName("毕达哥拉斯定理"));
    await page.locator(".cm-content").click();
    await page.keyboard.insertText("直角边的平方和等于斜边的平方 [@euclid]。\n\n周髀算经有记载 [@zhou, p. 12]。");
    await page.getByTestId("ref-label-0").fill("euclid");
    await page.getByTestId("ref-title-0").fill("Elements");
    await page.getByTestId("ref-label-1").fill("zhou");
    await page.getByTestId("ref-title-1").fill("周髀算经");
    await page.getByTestId("entry-parent-select").selectOption({ label: parentName });
    await page.getByTestId("entry-save").click();
    await page.waitForURL(/\/circles\/1\/encyclopedia\/\d+$/, { timeout: 30_000 });
    const entryUrl = new URL(page.url()).pathname;
    await expect.poll(() => page.locator('sup a[href="#user-content-ref-2"]').count()).toBe(1);
    expect(await page.getByTestId("entry-name").innerText()).toContain(name);

    await page.getByTestId("entry-edit").click();
    await page.waitForURL(`${entryUrl}/edit`);
    await hydrated(page);
    await page.locator(".cm-content").waitFor({ timeout: 30_000 });
    await page.locator(".cm-content").click();
    await page.keyboard.press("Control+End");
    await page.keyboard.insertText("\n\n勾三股四弦五。");
    await page.getByTestId("entry-citation_bracket").selectOption("round");
    // A photo with its caption, uploaded with the save: the infobox shows it.
    await page.getByTestId("entry-photo-file").setInputFiles({ name: "diagram.png", mimeType: "image/png", buffer: await testPng() });
    await page.getByTestId("entry-photo-caption").fill("示意图");
    await page.getByTestId("entry-summary").fill("补充");
    await page.getByTestId("entry-save").click();
    await page.waitForURL(entryUrl, { timeout: 30_000 });
    await expect.poll(() => page.locator(".rendered-content").innerText()).toContain("勾三股四弦五");
    expect(await page.locator(".rendered-content sup").first().innerText()).toMatch(/^\(\d/);
    expect(await page.getByTestId("entry-infobox").innerText()).toContain("示意图");
    await expect.poll(() => page.getByTestId("entry-parent").count()).toBe(1);

    await page.getByTestId("entry-history").click();
    await page.waitForURL(`${entryUrl}/history`);
    await expect.poll(() => page.getByTestId("revision-row").count()).toBe(2);
    await page.getByTestId("compare").click();
    await expect.poll(() => page.getByTestId("entry-diff").innerText(), { timeout: 30_000 }).toContain("勾三股四弦五");
    await page.getByTestId("revert-1").click();
    await expect.poll(() => page.getByTestId("revision-row").count(), { timeout: 30_000 }).toBe(3);
    await page.goto(entryUrl);
    expect(await page.locator(".rendered-content").innerText()).not.toContain("勾三股四弦五");

    // The English version, written from the entry page.
    await hydrated(page);
    await page.getByTestId("entry-add-version-en").click();
    await page.waitForURL(`${entryUrl}/edit?language=en`);
    await hydrated(page);
    await page.locator(".cm-content").waitFor({ timeout: 30_000 });
    await page.getByTestId("entry-name-input").fill(uniqueName("Pythagorean theorem"));
    await page.locator(".cm-content").click();
    await page.keyboard.insertText("The squares of the legs sum to the square of the hypotenuse [@euclid].");
    await page.getByTestId("entry-save").click();
    await page.waitForURL(`${entryUrl}/en`, { timeout: 30_000 });
    expect(await page.getByTestId("entry-version-changed").count()).toBe(0);

    // The Chinese version changes: the English one says so, in the English interface.
    await page.goto(`${entryUrl}/edit`);
    await hydrated(page);
    await page.locator(".cm-content").waitFor({ timeout: 30_000 });
    await page.locator(".cm-content").click();
    await page.keyboard.press("Control+End");
    await page.keyboard.insertText("\n\n又称商高定理。");
    await page.getByTestId("entry-save").click();
    await page.waitForURL(entryUrl, { timeout: 30_000 });
    await page.goto(`/en${entryUrl}`);
    await expect
      .poll(() => page.getByTestId("entry-version-changed").innerText())
      .toContain("The Chinese version has changed since this one was written (1 edit)");
    await page.getByTestId("entry-version-changed").getByRole("link").click();
    await expect.poll(() => page.getByTestId("entry-diff").innerText(), { timeout: 30_000 }).toContain("商高定理");

    // Cite this: copy the BibTeX of the current revision.
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    await page.goto(`/en${entryUrl}/en`);
    await hydrated(page);
    await page.getByTestId("cite-this").locator("summary").click();
    await page.getByTestId("cite-copy-bibtex").click();
    await expect.poll(() => page.getByTestId("cite-copy-bibtex").innerText()).toBe("Copied");
    const bibtex = await page.evaluate(() => navigator.clipboard.readText());
    expect(bibtex).toMatch(/^@misc\{entry\d+rev\d+,/);
    expect(bibtex).toContain(`/en${entryUrl}/en?revision=`);
    await context.close();
  });
});

describe("reordering an entry's photos (zh-CN)", () => {
  it("moves the second photo up at once, saves the order and shows it in the infobox", async () => {
    const { context, page } = await newVisitor();
    await signInAsNewUser(context);
    await page.goto("/circles/1/encyclopedia/write");
    await hydrated(page);
    await page.locator(".cm-content").waitFor({ timeout: 30_000 });
    await page.getByTestId("entry-name-input").fill(uniqueName("图片顺序"));
    for (const caption of ["甲图", "乙图"]) {
      const rows = await page.getByTestId("photo-row").count();
      await page.getByTestId("entry-photo-file").setInputFiles({ name: `${caption}.png`, mimeType: "image/png", buffer: await testPng() });
      await page.getByTestId("entry-photo-caption").fill(caption);
      await page.getByTestId("photo-add").click();
      await expect.poll(() => page.getByTestId("photo-row").count(), { timeout: 30_000 }).toBe(rows + 1);
    }
    await hydrated(page);
    await page.locator(".cm-content").click();
    await page.keyboard.insertText("两张图片。");
    expect(await page.getByTestId("photo-up-0").isDisabled()).toBe(true);
    await page.getByTestId("photo-up-1").click();
    await expect.poll(() => page.getByTestId("photo-caption-0").inputValue()).toBe("乙图");
    expect(await page.getByTestId("photo-caption-1").inputValue()).toBe("甲图");
    await page.getByTestId("entry-save").click();
    await page.waitForURL(/\/circles\/1\/encyclopedia\/\d+$/, { timeout: 30_000 });
    const infobox = await page.getByTestId("entry-infobox").innerText();
    expect(infobox).toContain("乙图");
    expect(infobox).not.toContain("甲图");
    expect(await page.getByTestId("entry-gallery").innerText()).toContain("甲图");
    await context.close();
  });
});

describe("the entry editor in English (smoke)", () => {
  it("opens the editor and an entry's history in English", async () => {
    const { context, page } = await newVisitor({ locale: "en-US" });
    await signInAsNewUser(context);
    await page.goto("/en/circles/1/encyclopedia/write");
    expect(await page.locator("h1").innerText()).toBe("Create an entry");
    expect(await page.getByTestId("entry-references").innerText()).toContain("References");
    await page.goto("/en/circles/1/encyclopedia?q=pythagor");
    expect(await page.locator("h1").innerText()).toContain("encyclopedia");
    expect(await page.getByTestId("wiki-results").innerText()).toContain("Entries matching “pythagor”");
    await context.close();
  });
});
