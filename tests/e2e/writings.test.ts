import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { baseURL, closeBrowser, launchBrowser, newVisitor, signInAsNewUser, uniqueName, seriousViolations } from "./browser.ts";
import { wholeSitemap } from "../support/sitemap.ts";
import { addCatalog, translator } from "../../common/i18n.ts";
import { localizePath, type Locale } from "../../common/locale.ts";
import { oversizedJpeg, testPng } from "../support/images.ts";
import zhWritings from "../../common/locales/zh-CN/writings.json" with { type: "json" };
import enWritings from "../../common/locales/en/writings.json" with { type: "json" };
import zhEditor from "../../common/locales/zh-CN/editor.json" with { type: "json" };
import enEditor from "../../common/locales/en/editor.json" with { type: "json" };
import zhErrors from "../../common/locales/zh-CN/errors.json" with { type: "json" };
import enErrors from "../../common/locales/en/errors.json" with { type: "json" };

addCatalog("writings", { "zh-CN": zhWritings, en: enWritings });
addCatalog("editor", { "zh-CN": zhEditor, en: enEditor });
addCatalog("errors", { "zh-CN": zhErrors, en: enErrors });

beforeAll(launchBrowser);
afterAll(closeBrowser);

const eventually = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 20_000 });

/** React has hydrated the page and CodeMirror has replaced the textarea. */
async function editorReady(page: Page): Promise<void> {
  await page.locator(".cm-content").waitFor({ timeout: 30_000 });
}

async function typeMarkdown(page: Page, text: string): Promise<void> {
  await page.locator(".cm-content").click();
  await page.keyboard.insertText(text);
}

const readingPath = /^\/(en\/)?circles\/1\/writing\/(\d+)$/;

/**
 * Each journey runs in one language; the other language gets a shorter path through the same
 * pages (the cover tests, the smoke tests below; common/i18n.test.ts checks the catalogs match).
 */
const journeyLanguage = {
  article: "zh-CN",
  draft: "en",
  conflictWithScript: "zh-CN",
  conflictWithoutScript: "en",
  plainForm: "en",
} as const satisfies Record<string, Locale>;

/** A signed-in writer with an article made through the API, and a way to save it "in another tab". */
async function writerWithArticle(locale: Locale) {
  const writer = await newVisitor({ locale });
  await signInAsNewUser(writer.context);
  const csrftoken = (await writer.context.cookies()).find((cookie) => cookie.name === "csrftoken")!.value;
  const api = (method: "post" | "patch", url: string, data: Record<string, unknown>) =>
    writer.context.request[method](url, { headers: { "x-csrftoken": csrftoken }, data });
  const created = await api("post", "/api/circles/1/writings/", {
    title: uniqueName("Original "),
    content: "The first text.",
    type: "article",
    kind: "ordinary",
    language: locale,
    categories: [],
  });
  expect(created.status()).toBe(201);
  const { id, url } = (await created.json()) as { id: number; url: string };
  /** Another tab saves the writing in between: it now has the given title and text. */
  const savedElsewhere = async (title: string, content: string) => {
    const current = (await (await writer.context.request.get(`/api/writings/${id}/`)).json()) as { version: number };
    expect((await api("patch", `/api/writings/${id}/`, { title, content, version: current.version })).status()).toBe(200);
  };
  return { writer, id, url, savedElsewhere };
}

describe.each(["zh-CN", "en"] as const)("writings in the browser (%s)", (locale: Locale) => {
  const t = translator(locale);
  const path = (to: string) => localizePath(to, locale);
  const other: Locale = locale === "en" ? "zh-CN" : "en";
  const journey = (name: keyof typeof journeyLanguage, title: string, test: () => Promise<void>, timeout?: number) => {
    if (journeyLanguage[name] === locale) it(title, test, timeout);
  };

  journey(
    "article",
    "write an article with math, code and an image → publish → read with JavaScript on and off → add the other language → switch",
    async () => {
      const writer = await newVisitor({ locale, bypassCSP: true });
      const { username } = await signInAsNewUser(writer.context);
      const { page } = writer;

      // The header's Write button leads to the circle choice, and a circle to a working editor.
      await page.goto(path("/"));
      await page.getByRole("link", { name: t("common:nav.write") }).click();
      await page.waitForURL((url) => url.pathname === path("/write"));
      await page.locator('[data-testid="circle-choice"] a[data-circle="1"]').click();
      await page.waitForURL((url) => url.pathname === path("/circles/1/write/article"));
      await editorReady(page);
      const title = uniqueName(locale === "en" ? "Pythagoras " : "勾股定理");
      await page.getByLabel(t("editor:editor.title"), { exact: true }).fill(title);
      await typeMarkdown(page, "## Proof\n\nFor a right triangle $a^2 + b^2 = c^2$.\n\n```python\nprint(sum([1, 2]))\n```\n");
      // An image by the toolbar's upload button lands in the text as an attachment.
      await page.getByTestId("tool-image").setInputFiles({ name: "figure.png", mimeType: "image/png", buffer: await testPng(120, 80) });
      await eventually(() => page.getByTestId("content-textarea").inputValue()).toMatch(/!\[figure\]\(\/attach\/[\w-]+\)/);
      // The live preview renders through the server pipeline; the draft is saved on its own.
      await page.getByTestId("preview").locator(".katex").first().waitFor();
      await expect(page.getByTestId("preview").locator("pre.shiki").count()).resolves.toBe(1);
      await eventually(() => page.getByTestId("autosave-status").getAttribute("data-state")).toBe("saved");

      await page.getByTestId("publish").click();
      await page.waitForURL((url) => readingPath.test(url.pathname));
      const articlePath = new URL(page.url()).pathname;
      await eventually(() => page.locator("h1").innerText()).toContain(title);
      await page.locator(".writing-content .katex").first().waitFor();
      await expect(page.locator(".writing-content pre.shiki").count()).resolves.toBe(1);
      await expect(page.locator('.writing-content img[src^="/attach/"]').count()).resolves.toBe(1);
      await expect(page.getByTestId("edit-writing").count()).resolves.toBe(1);
      expect(await seriousViolations(page)).toEqual([]);

      // Under another circle it answers 301 to its own; a language it lacks and an unknown one are 404s; the sitemap lists it.
      const id = readingPath.exec(articlePath)![2];
      const moved = await page.request.get(path(`/circles/2/writing/${id}`), { maxRedirects: 0 });
      expect(moved.status()).toBe(301);
      expect(moved.headers().location).toBe(path(`/circles/1/writing/${id}`));
      expect((await page.request.get(path(`/circles/1/writing/${id}/${other}`))).status()).toBe(404);
      expect((await page.request.get(path(`/circles/1/writing/${id}/fr`))).status()).toBe(404);
      expect(await wholeSitemap(async (path) => (await page.request.get(path)).text())).toContain(`/circles/1/writing/${id}</loc>`);

      // The author's profile lists it.
      const profile = await page.request.get(path(`/profile/${username}?tab=articles`));
      expect(await profile.text()).toContain(title);

      // A reader without JavaScript gets the whole article.
      const reader = await newVisitor({ locale, javaScriptEnabled: false });
      const response = await reader.page.goto(articlePath);
      expect(response?.status()).toBe(200);
      await eventually(() => reader.page.locator("h1").innerText()).toContain(title);
      await expect(reader.page.locator(".writing-content .katex").count()).resolves.toBeGreaterThan(0);
      await expect(reader.page.locator(".writing-content pre.shiki").count()).resolves.toBe(1);
      await expect(reader.page.getByTestId("edit-writing").count()).resolves.toBe(0);
      await expect(reader.page.locator('script[type="application/ld+json"]').count()).resolves.toBe(1);
      await reader.context.close();

      // The author adds the other language version.
      await page.getByTestId("add-language").click();
      await page.waitForURL((url) => url.pathname === path("/circles/1/write/article"));
      await editorReady(page);
      expect(await seriousViolations(page)).toEqual([]);
      const translated = uniqueName(other === "en" ? "Pythagoras " : "勾股定理");
      await page.getByLabel(t("editor:editor.title"), { exact: true }).fill(translated);
      await typeMarkdown(page, other === "en" ? "The theorem, in English: $c^2$." : "中文版的定理：$c^2$。");
      await page.getByTestId("publish").click();
      await page.waitForURL((url) => readingPath.test(url.pathname) && url.pathname !== articlePath);
      await eventually(() => page.locator("h1").innerText()).toContain(translated);

      // The language switcher leads back to the first version.
      await page.getByTestId(`language-${locale}`).click();
      await eventually(() => page.locator("h1").innerText()).toContain(title);
      expect(new URL(page.url()).pathname).toMatch(new RegExp(`/${locale}$`));
      await writer.context.close();
    },
  );

  journey("draft", "a draft survives a closed tab and reopens from the drafts page; a post is published and listed", async () => {
    const writer = await newVisitor({ locale });
    await signInAsNewUser(writer.context);
    const first = await writer.context.newPage();
    await first.goto(path("/circles/1/post"));
    await editorReady(first);
    const title = uniqueName(locale === "en" ? "Draft " : "草稿");
    await first.getByLabel(t("editor:editor.title"), { exact: true }).fill(title);
    await typeMarkdown(first, "Kept across a closed tab.");
    await first.close({ runBeforeUnload: true });

    const second = await writer.context.newPage();
    await eventually(async () => {
      await second.goto(path("/account/drafts"));
      return second
        .getByTestId("draft-list")
        .innerText()
        .catch(() => "");
    }).toContain(title);
    await second
      .getByRole("link", { name: t("editor:drafts.open") })
      .first()
      .click();
    await second.waitForURL((url) => url.pathname === path("/circles/1/post"));
    await editorReady(second);
    await expect(second.getByLabel(t("editor:editor.title"), { exact: true }).inputValue()).resolves.toBe(title);
    await expect(second.locator(".cm-content").innerText()).resolves.toContain("Kept across a closed tab.");
    await second.getByTestId("draft-restored").waitFor();

    await second.getByTestId("publish").click();
    await second.waitForURL((url) => /^\/(en\/)?circles\/1\/posts\/\d+$/.test(url.pathname));
    await eventually(() => second.locator("h1").innerText()).toContain(title);
    await second.goto(path("/circles/1?tab=posts"));
    await expect(second.getByTestId("writing-list").innerText()).resolves.toContain(title);
    // Published: the draft is gone.
    await second.goto(path("/account/drafts"));
    await expect(second.locator("body").innerText()).resolves.not.toContain(title);
    await writer.context.close();
  });

  if (journeyLanguage.draft !== locale)
    it("the post editor saves a draft on its own, and the drafts page lists it and opens it (smoke)", async () => {
      const writer = await newVisitor({ locale });
      await signInAsNewUser(writer.context);
      const { page } = writer;
      await page.goto(path("/circles/1/post"));
      await editorReady(page);
      const title = uniqueName(locale === "zh-CN" ? "草稿" : "Draft ");
      await page.getByLabel(t("editor:editor.title"), { exact: true }).fill(title);
      await typeMarkdown(page, "Saved without a click.");
      await eventually(() => page.getByTestId("autosave-status").getAttribute("data-state")).toBe("saved");
      await page.goto(path("/account/drafts"));
      await expect(page.getByTestId("draft-list").innerText()).resolves.toContain(title);
      await page
        .getByRole("link", { name: t("editor:drafts.open") })
        .first()
        .click();
      await page.waitForURL((url) => url.pathname === path("/circles/1/post"));
      await editorReady(page);
      await expect(page.getByLabel(t("editor:editor.title"), { exact: true }).inputValue()).resolves.toBe(title);
      await writer.context.close();
    });

  journey(
    "conflictWithScript",
    "an edit conflict with JavaScript offers both versions: use the other one, or publish mine over it",
    async () => {
      const { writer, url, id, savedElsewhere } = await writerWithArticle(locale);
      const { page } = writer;
      const titleField = page.getByLabel(t("editor:editor.title"), { exact: true });

      // "Use the other version": the saved title and text replace mine in the editor; publishing then succeeds.
      await page.goto(`${path("/circles/1/write/article")}?edit=${id}`);
      await editorReady(page);
      const theirs = uniqueName("Theirs ");
      await savedElsewhere(theirs, "Their text, saved in another tab.");
      await titleField.fill(uniqueName("Mine "));
      await page.getByTestId("publish").click();
      await page.getByTestId("edit-conflict").waitFor();
      await expect(page.getByTestId("edit-conflict-title").innerText()).resolves.toBe(theirs);
      await expect(page.getByTestId("edit-keep-mine").innerText()).resolves.toBe(t("editor:editor.edit_keep_mine"));
      await page.getByTestId("edit-use-theirs").click();
      await expect(titleField.inputValue()).resolves.toBe(theirs);
      await eventually(() => page.locator(".cm-content").innerText()).toContain("Their text, saved in another tab.");
      await expect(page.getByTestId("edit-taken").innerText()).resolves.toBe(t("editor:editor.edit_taken"));
      await expect(page.getByTestId("edit-conflict").count()).resolves.toBe(0);
      await typeMarkdown(page, " And my addition.");
      await page.getByTestId("publish").click();
      await page.waitForURL((next) => next.pathname === path(url));
      await eventually(() => page.locator("h1").innerText()).toContain(theirs);
      await expect(page.locator(".writing-content").innerText()).resolves.toContain("And my addition.");

      // "Publish my version": mine is saved over the other one.
      await page.goto(`${path("/circles/1/write/article")}?edit=${id}`);
      await editorReady(page);
      await savedElsewhere(uniqueName("Again theirs "), "Another text from elsewhere.");
      const mine = uniqueName("Mine ");
      await titleField.fill(mine);
      await page.getByTestId("publish").click();
      await page.getByTestId("edit-conflict").waitFor();
      await page.getByTestId("edit-keep-mine").click();
      await page.waitForURL((next) => next.pathname === path(url));
      await eventually(() => page.locator("h1").innerText()).toContain(mine);
      await expect(page.locator(".writing-content").innerText()).resolves.toContain("And my addition.");
      await writer.context.close();
    },
  );

  journey("conflictWithoutScript", "an edit conflict without JavaScript offers both versions as plain form posts", async () => {
    const { writer, url, id, savedElsewhere } = await writerWithArticle(locale);
    const noScript = await writer.context
      .browser()!
      .newContext({ baseURL: baseURL(), locale, javaScriptEnabled: false, storageState: await writer.context.storageState() });
    const plain = await noScript.newPage();
    const plainTitle = plain.getByLabel(t("editor:editor.title"), { exact: true });
    await plain.goto(`${path("/circles/1/write/article")}?edit=${id}`);
    const plainTheirs = uniqueName("Plain theirs ");
    await savedElsewhere(plainTheirs, "Saved while the plain form was open.");
    await plainTitle.fill(uniqueName("Plain mine "));
    await plain.getByTestId("publish").click();
    await plain.getByTestId("edit-conflict").waitFor();
    await expect(plain.getByTestId("edit-keep-mine").innerText()).resolves.toBe(t("editor:editor.edit_keep_mine"));
    await plain.getByTestId("edit-use-theirs").click();
    await plain.getByTestId("edit-taken").waitFor();
    await expect(plain.getByTestId("edit-taken").innerText()).resolves.toBe(t("editor:editor.edit_taken"));
    await expect(plainTitle.inputValue()).resolves.toBe(plainTheirs);
    await expect(plain.getByTestId("content-textarea").inputValue()).resolves.toBe("Saved while the plain form was open.");
    await plain.getByTestId("publish").click();
    await plain.waitForURL((next) => next.pathname === path(url));
    await expect(plain.locator("h1").innerText()).resolves.toContain(plainTheirs);

    await plain.goto(`${path("/circles/1/write/article")}?edit=${id}`);
    await savedElsewhere(uniqueName("Plain again "), "Once more from elsewhere.");
    const plainMine = uniqueName("Plain mine ");
    await plainTitle.fill(plainMine);
    await plain.getByTestId("publish").click();
    await plain.getByTestId("edit-keep-mine").click();
    await plain.waitForURL((next) => next.pathname === path(url));
    await expect(plain.locator("h1").innerText()).resolves.toContain(plainMine);
    await noScript.close();
    await writer.context.close();
  });

  journey("plainForm", "publishes, edits and deletes from the plain form without JavaScript", async () => {
    const writer = await newVisitor({ locale });
    await signInAsNewUser(writer.context);
    const noScript = await writer.context
      .browser()!
      .newContext({ baseURL: baseURL(), locale, javaScriptEnabled: false, storageState: await writer.context.storageState() });
    const page = await noScript.newPage();
    await page.goto(path("/circles/1/write/article"));
    const title = uniqueName(locale === "en" ? "Plain " : "无脚本");
    await page.getByLabel(t("editor:editor.title"), { exact: true }).fill(title);
    await page.getByTestId("content-textarea").fill("Plain *Markdown* with $x$.");
    await page.getByTestId("publish").click();
    await page.waitForURL((url) => readingPath.test(url.pathname));
    await eventually(() => page.locator("h1").innerText()).toContain(title);
    await expect(page.locator(".writing-content em").innerText()).resolves.toBe("Markdown");
    const readingUrl = new URL(page.url()).pathname;

    // Editing shows the edited time; deleting asks first, then removes it for good.
    await page.getByTestId("edit-writing").click();
    await page.getByLabel(t("editor:editor.title"), { exact: true }).fill(`${title}!`);
    await page.getByTestId("publish").click();
    await page.waitForURL((url) => url.pathname === readingUrl);
    await expect(page.locator("h1").innerText()).resolves.toContain(`${title}!`);
    await page.getByTestId("edited-at").waitFor();
    await page.getByTestId("delete-writing").click();
    await expect(page.getByRole("alert").innerText()).resolves.toContain(t("writings:read.delete_confirm"));
    await page.getByTestId("confirm-delete").click();
    await page.waitForURL((url) => url.pathname === path("/circles/1"));
    await expect(page.locator(".notice").innerText()).resolves.toContain(t("writings:read.deleted"));
    expect((await page.goto(readingUrl))?.status()).toBe(404);
    await noScript.close();
    await writer.context.close();
  });
});

describe("the writing cover", () => {
  it("without JavaScript (zh-CN): a real file field posted with the form; a wrong or too large file is refused with every typed field kept; a right one is stored and shown", async () => {
    const t = translator("zh-CN");
    const writer = await newVisitor({ locale: "zh-CN" });
    await signInAsNewUser(writer.context);
    const noScript = await writer.context
      .browser()!
      .newContext({ baseURL: baseURL(), locale: "zh-CN", javaScriptEnabled: false, storageState: await writer.context.storageState() });
    const page = await noScript.newPage();
    await page.goto("/circles/1/write/article");
    expect(await page.locator("form#writing-editor-form").getAttribute("enctype")).toBe("multipart/form-data");
    const title = uniqueName("有封面");
    const content = "封面之下：$a^2$ 与 *强调*。";
    await page.getByLabel(t("editor:editor.title"), { exact: true }).fill(title);
    await page.getByTestId("content-textarea").fill(content);
    // Without JavaScript related entries are typed as ids (the demo store's entries).
    const entryIds = await Promise.all(
      ["勾股定理", "递归"].map(
        async (q) =>
          (await (await page.request.get(`/api/encyclopedia/entries/?q=${encodeURIComponent(q)}`)).json()).results[0].id as number,
      ),
    );
    const relatedIds = entryIds.join(", ");
    await page.getByLabel(t("editor:editor.related_entries")).fill(relatedIds);
    await page.locator('input[name="is_repost"]').check();
    await page.getByLabel(t("editor:editor.source_url")).fill("https://example.com/source");
    const kept = async () => {
      expect(await page.getByLabel(t("editor:editor.title"), { exact: true }).inputValue()).toBe(title);
      expect(await page.getByTestId("content-textarea").inputValue()).toBe(content);
      expect(await page.getByLabel(t("editor:editor.related_entries")).inputValue()).toBe(relatedIds);
      expect(await page.locator('input[name="is_repost"]').isChecked()).toBe(true);
      expect(await page.getByLabel(t("editor:editor.source_url")).inputValue()).toBe("https://example.com/source");
    };

    // Not an image (whatever its name and type say): the cover's localized error, everything else kept.
    await page
      .getByTestId("cover-input")
      .setInputFiles({ name: "cover.png", mimeType: "image/png", buffer: Buffer.from("<svg xmlns='http://www.w3.org/2000/svg'/>") });
    await page.getByTestId("publish").click();
    await page.waitForLoadState();
    expect(await page.locator('[data-field-error="writing-cover"]').textContent()).toBe(t("errors:image_type_not_allowed"));
    await kept();
    // Over 2 MB by its bytes: the same.
    await page.getByTestId("cover-input").setInputFiles({ name: "big.jpg", mimeType: "image/jpeg", buffer: oversizedJpeg() });
    await page.getByTestId("publish").click();
    await page.waitForLoadState();
    expect(await page.locator('[data-field-error="writing-cover"]').textContent()).toBe(t("errors:image_too_large"));
    await kept();

    // A PNG: published with its cover.
    await page.getByTestId("cover-input").setInputFiles({ name: "cover.png", mimeType: "image/png", buffer: await testPng(640, 360) });
    await page.getByTestId("publish").click();
    await page.waitForURL((url) => readingPath.test(url.pathname));
    expect(await page.locator("h1").innerText()).toContain(title);
    const cover = await page.locator("img.writing-cover").getAttribute("src");
    expect(cover).toMatch(/^\/attach\/[\w-]{24}$/);
    expect((await page.request.get(cover!)).headers()["content-type"]).toBe("image/png");

    // Editing without JavaScript: the cover stays unless "remove" is ticked.
    await page.getByTestId("edit-writing").click();
    expect(await page.getByTestId("cover-preview").getAttribute("src")).toBe(cover);
    await page.getByTestId("cover-remove").check();
    await page.getByTestId("publish").click();
    await page.waitForURL((url) => readingPath.test(url.pathname));
    expect(await page.locator("img.writing-cover").count()).toBe(0);

    // Deleting asks on the page first, in this language too (the plain-form journey runs in English).
    const readingUrl = new URL(page.url()).pathname;
    await page.getByTestId("edited-at").waitFor();
    await page.getByTestId("delete-writing").click();
    await expect(page.getByRole("alert").innerText()).resolves.toContain(t("writings:read.delete_confirm"));
    await page.getByTestId("confirm-delete").click();
    await page.waitForURL((url) => url.pathname === "/circles/1");
    await expect(page.locator(".notice").innerText()).resolves.toContain(t("writings:read.deleted"));
    expect((await page.goto(readingUrl))?.status()).toBe(404);
    await noScript.close();
    await writer.context.close();
  }, 120_000);

  it("with JavaScript (en): the cover uploads at once with a preview, a wrong file says why and keeps the form, remove works, and it is published", async () => {
    const t = translator("en");
    const writer = await newVisitor({ locale: "en" });
    await signInAsNewUser(writer.context);
    const { page } = writer;
    await page.goto("/en/circles/1/write/article");
    await editorReady(page);
    const title = uniqueName("Covered ");
    await page.getByLabel(t("editor:editor.title"), { exact: true }).fill(title);
    await typeMarkdown(page, "Under the cover: $b^2$.");
    await page.getByTestId("cover-input").setInputFiles({ name: "cover.png", mimeType: "image/png", buffer: Buffer.from("not an image") });
    // The upload's own message follows the localized "could not be uploaded".
    await eventually(() =>
      page
        .getByRole("status")
        .filter({ hasText: t("editor:editor.upload_failed", { message: "" }).trim() })
        .count(),
    ).toBe(1);
    expect(await page.getByTestId("cover-preview").count()).toBe(0);
    await page.getByTestId("cover-input").setInputFiles({ name: "cover.png", mimeType: "image/png", buffer: await testPng(640, 360) });
    await eventually(() => page.getByTestId("cover-preview").getAttribute("src")).toMatch(/^\/attach\/[\w-]{24}$/);
    await page.getByTestId("cover-remove").click();
    expect(await page.getByTestId("cover-preview").count()).toBe(0);
    await page.getByTestId("cover-input").setInputFiles({ name: "cover2.png", mimeType: "image/png", buffer: await testPng(500, 300) });
    await eventually(() => page.getByTestId("cover-preview").getAttribute("src")).toMatch(/^\/attach\/[\w-]{24}$/);
    const cover = await page.getByTestId("cover-preview").getAttribute("src");
    expect(await page.getByLabel(t("editor:editor.title"), { exact: true }).inputValue()).toBe(title);
    expect(await page.getByTestId("content-textarea").inputValue()).toBe("Under the cover: $b^2$.");
    await page.getByTestId("publish").click();
    await page.waitForURL((url) => readingPath.test(url.pathname));
    await eventually(() => page.locator("h1").innerText()).toContain(title);
    expect(await page.locator("img.writing-cover").getAttribute("src")).toBe(cover);
    await writer.context.close();
  }, 120_000);
});
