import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BrowserContext } from "playwright-core";
import { closeBrowser, hydrated, launchBrowser, newVisitor, signInAsNewUser, uniqueName } from "./browser.ts";

beforeAll(launchBrowser);
afterAll(closeBrowser);

async function csrf(context: BrowserContext): Promise<string> {
  return ((await (await context.request.get("/api/get_csrf_token/")).json()) as { csrftoken: string }).csrftoken;
}

describe("a new answer, live", () => {
  it("shows the asker reading their question '1 new answer'; following it loads the answer on the page", async () => {
    for (const [prefix, locale, notice] of [
      ["", "zh-CN", "1 个新回答"],
      ["/en", "en", "1 new answer"],
    ] as const) {
      const asker = await newVisitor({ locale, viewport: { width: 1280, height: 900 } });
      await signInAsNewUser(asker.context);
      const asked = await asker.context.request.post("/api/circles/1/questions/", {
        headers: { "x-csrftoken": await csrf(asker.context) },
        data: { title: uniqueName("实时回答的问题？ ") },
      });
      expect(asked.status()).toBe(201);
      const question = (await asked.json()) as { id: number; url: string };
      await asker.page.goto(`${prefix}${question.url}`);
      await hydrated(asker.page);
      expect(await asker.page.getByTestId("new-answers-notice").count()).toBe(0);

      const answerer = await newVisitor({ locale });
      await signInAsNewUser(answerer.context);
      const answered = await answerer.context.request.post(`/api/questions/${question.id}/answers/`, {
        headers: { "x-csrftoken": await csrf(answerer.context) },
        data: { content: "这是一个实时送达的回答。" },
      });
      expect(answered.status()).toBe(201);
      const answer = (await answered.json()) as { id: number };
      await answerer.context.close();

      const link = asker.page.getByTestId("new-answers-notice");
      await expect.poll(() => link.count(), { timeout: 20_000 }).toBe(1);
      expect((await link.innerText()).trim()).toBe(notice);
      expect(await asker.page.locator(`#answer-${answer.id}`).count()).toBe(0);
      const questionPath = new URL(asker.page.url()).pathname;
      await link.click();
      // The page's answers are read again and it scrolls to the new one; when the answer is not on
      // the page read (it came in after that read), the notice opens the answer's own page instead.
      await expect
        .poll(
          async () =>
            (await asker.page.locator(`#answer-${answer.id}`).count()) > 0 ||
            new URL(asker.page.url()).pathname.startsWith(`${questionPath}/`),
        )
        .toBe(true);
      await expect.poll(() => asker.page.locator("main").innerText()).toContain("这是一个实时送达的回答");
      await expect.poll(() => link.count()).toBe(0);
      await asker.context.close();
    }
  });
});
