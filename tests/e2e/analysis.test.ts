import { readFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeBrowser, launchBrowser, newVisitor, publishArticle, signInAsNewUser, uniqueName } from "./browser.ts";

beforeAll(launchBrowser);
afterAll(closeBrowser);

const readerAgent = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36";

/** Issue 36 "Creators earn": a creator sees a reader's visit and like in the chart and the table, and exports CSV. */
describe("the creator's analysis", () => {
  for (const locale of ["zh-CN", "en"] as const) {
    const prefix = locale === "en" ? "/en" : "";
    it(`moves after a reader's visit and like, and exports CSV (${locale})`, async () => {
      const creator = await newVisitor({ locale });
      await signInAsNewUser(creator.context);
      const title = uniqueName(locale === "en" ? "Analysis " : "分析 ");
      const path = await publishArticle(creator.context, title);
      const totals = creator.page.getByTestId("analysis-totals");
      await creator.page.goto(`${prefix}/creator/analysis/content?days=7`);
      expect(await totals.locator('[data-key="views"] dd').textContent()).toBe("0");
      expect(await creator.page.getByTestId("analysis-items").count()).toBe(0);

      // A reader's ordinary browser (headless Chromium names itself as such, and is counted as a bot).
      const reader = await newVisitor({ locale, userAgent: readerAgent });
      await signInAsNewUser(reader.context);
      await reader.page.goto(path);
      await reader.page.mouse.wheel(0, 100_000);
      const id = path.split("/").filter(Boolean).at(-1);
      const { csrftoken } = (await (await reader.context.request.get("/api/get_csrf_token/")).json()) as { csrftoken: string };
      const liked = await reader.context.request.put(`/api/subjects/writing/${id}/reaction/`, {
        headers: { "x-csrftoken": csrftoken },
        data: { reaction: "like" },
      });
      expect(liked.status()).toBe(200);

      await expect
        .poll(async () => {
          await creator.page.goto(`${prefix}/creator/analysis/content?days=7&metric=likes`);
          return totals.locator('[data-key="views"] dd').textContent();
        })
        .toBe("1");
      expect(await totals.locator('[data-key="likes"] dd').textContent()).toBe("1");
      // The server's SVG, drawn again interactive once the chart code has loaded: hovering a day shows its figures.
      const live = creator.page.locator('figure.analysis-chart[data-interactive="true"] .analysis-chart-live');
      await expect.poll(() => live.locator("svg").count()).toBe(1);
      expect(await creator.page.locator("figure.analysis-chart > div[hidden] svg").count()).toBe(1);
      await live.scrollIntoViewIfNeeded();
      const box = (await live.boundingBox())!;
      await expect
        .poll(async () => {
          await creator.page.mouse.move(box.x + box.width / 2, box.y + box.height / 2 + 10, { steps: 4 });
          await creator.page.mouse.move(box.x + box.width - 40, box.y + box.height / 2, { steps: 4 });
          return live.locator(".analysis-tooltip").textContent();
        })
        .toContain(locale === "en" ? "Likes" : "点赞");
      const row = creator.page.getByTestId("analysis-items").locator("tbody tr", { hasText: title });
      expect(await row.count()).toBe(1);
      expect(await creator.page.getByTestId("analysis-provisional").isVisible()).toBe(true);

      const exported = creator.page.waitForEvent("download");
      await creator.page.getByRole("link", { name: locale === "en" ? "Export CSV" : "导出 CSV" }).click();
      const csv = await readFile((await (await exported).path())!);
      expect([...csv.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      expect(csv.toString("utf8")).toContain(title);
      await reader.context.close();
      await creator.context.close();
    });
  }
});
