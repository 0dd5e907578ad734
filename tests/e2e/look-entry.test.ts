import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BrowserContext } from "playwright-core";
import { closeBrowser, hydrated, launchBrowser, newVisitor, signInAsNewUser, uniqueName } from "./browser.ts";

beforeAll(launchBrowser);
afterAll(closeBrowser);

const paragraphs = [
  "甲乙丙是第一段。[@hardy]",
  "第二段不变。",
  "第三段不变。",
  "第四段不变。",
  "第五段不变。",
  "最后一段也引用了它 [@hardy]。",
];

/** An entry in the global village with six paragraphs and a reference cited twice, then an edit of its first and last paragraph. */
async function entryWithTwoRevisions(context: BrowserContext): Promise<string> {
  const { csrftoken } = (await (await context.request.get("/api/get_csrf_token/")).json()) as { csrftoken: string };
  const references = [{ label: "hardy", authors: ["Hardy, G. H.", "Wright, E. M."], title: "An Introduction to the Theory of Numbers" }];
  const made = await context.request.post("/api/circles/1/encyclopedia/entries/", {
    headers: { "x-csrftoken": csrftoken },
    data: { name: uniqueName("数论"), language: "zh-CN", content: paragraphs.join("\n\n"), references },
  });
  expect(made.status()).toBe(201);
  const { id, url, revision } = (await made.json()) as { id: number; url: string; revision: number };
  const edited = [paragraphs[0]!.replace("乙", "丁"), ...paragraphs.slice(1, 5), "最后一段改过了，也引用了它 [@hardy]。"];
  const patched = await context.request.patch(`/api/encyclopedia/entries/${id}/`, {
    headers: { "x-csrftoken": csrftoken },
    data: { base_revision: revision, content: edited.join("\n\n"), references, summary: "改两段" },
  });
  expect(patched.status()).toBe(200);
  return url;
}

describe("the entry page and its history", () => {
  it("keeps its actions spaced inside the card, other languages in a card, Cite this under the row; references read well", async () => {
    const { context, page } = await newVisitor({ locale: "zh-CN", viewport: { width: 1280, height: 900 } });
    await signInAsNewUser(context);
    const url = await entryWithTwoRevisions(context);
    await page.goto(url);
    await hydrated(page);

    const card = (await page.locator(".entry-page > header.panel").boundingBox())!;
    const buttons = [page.getByTestId("entry-edit"), page.getByTestId("entry-history"), page.getByTestId("cite-this").locator("summary")];
    let previousEnd = -Infinity;
    for (const button of buttons) {
      const box = (await button.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(card.x);
      expect(box.y).toBeGreaterThanOrEqual(card.y);
      expect(box.y + box.height).toBeLessThanOrEqual(card.y + card.height);
      expect(box.x - previousEnd).toBeGreaterThanOrEqual(8);
      previousEnd = box.x + box.width;
    }

    const versions = page.getByTestId("entry-versions");
    expect(await versions.evaluate((element) => getComputedStyle(element).backgroundColor)).not.toBe("rgba(0, 0, 0, 0)");

    await page.getByTestId("cite-this").locator("summary").click();
    const panel = (await page.locator(".cite-body").boundingBox())!;
    const row = (await page.locator(".entry-actions").boundingBox())!;
    expect(Math.abs(panel.x - row.x)).toBeLessThan(2);
    expect(panel.y).toBeGreaterThanOrEqual(row.y + row.height);

    const reference = (await page.locator(".rendered-content li").last().innerText()).trim();
    expect(reference).toMatch(/^\^ a b /);
    expect(reference).toContain("Wright, E. M. An Introduction");
    expect(reference).not.toContain("..");
    await context.close();
  });

  it("shows a diff in two aligned, coloured columns with character marks and folded unchanged paragraphs; the English history fits a phone", async () => {
    const { context, page } = await newVisitor({ locale: "zh-CN", viewport: { width: 1280, height: 900 } });
    await signInAsNewUser(context);
    const url = await entryWithTwoRevisions(context);
    await page.goto(`${url}/history`);
    await page.getByTestId("compare").click();
    await page.getByTestId("entry-diff").waitFor();
    await page.getByTestId("diff-side").click();
    await page.getByTestId("diff-columns").waitFor();

    const changed = page.locator(".diff-columns tr.diff-changed").first();
    const [old, fresh] = [(await changed.locator(".diff-old").boundingBox())!, (await changed.locator(".diff-new").boundingBox())!];
    expect(Math.abs(old.y - fresh.y)).toBeLessThan(1);
    expect(fresh.x).toBeGreaterThanOrEqual(old.x + old.width - 1);
    expect(old.width).toBeGreaterThan(300);
    // Character level in Chinese: only 乙 and 丁 are marked.
    expect(await changed.locator("del.diff-removed").allInnerTexts()).toEqual(["乙"]);
    expect(await changed.locator("ins.diff-added").allInnerTexts()).toEqual(["丁"]);
    const rgb = async (selector: string) =>
      (
        await page
          .locator(selector)
          .first()
          .evaluate((element) => getComputedStyle(element).backgroundColor)
      )
        .match(/\d+/g)!
        .map(Number);
    const [removedRed, removedGreen] = await rgb(".diff-columns del.diff-removed");
    const [addedRed, addedGreen] = await rgb(".diff-columns ins.diff-added");
    expect(removedRed).toBeGreaterThan(removedGreen! + 40);
    expect(addedGreen).toBeGreaterThan(addedRed! + 40);

    const fold = page.getByTestId("diff-fold");
    expect(await fold.count()).toBe(1);
    expect((await fold.locator("summary").innerText()).trim()).toBe("2 段未改动");
    expect(await fold.evaluate((details) => (details as HTMLDetailsElement).open)).toBe(false);
    await fold.locator("summary").click();
    await expect.poll(() => fold.innerText()).toContain("第三段不变");
    const diffUrl = new URL(page.url());
    await context.close();

    const phone = await newVisitor({ locale: "en", viewport: { width: 390, height: 844 } });
    for (const path of [`/en${url}/history`, `/en${diffUrl.pathname}${diffUrl.search}`]) {
      await phone.page.goto(path);
      expect(await phone.page.evaluate(() => document.scrollingElement!.scrollWidth - window.innerWidth), path).toBe(0);
    }
    await phone.context.close();
  });
});
