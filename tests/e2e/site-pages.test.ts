import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeBrowser, launchBrowser, newVisitor, signInAsNewUser, uniqueName } from "./browser.ts";

beforeAll(launchBrowser);
afterAll(closeBrowser);

/** Issue 39 "The spec's last pages": contact, feedback (sent and listed with its status), friend links and the school zone. */
describe("the site's own pages", () => {
  for (const locale of ["zh-CN", "en"] as const) {
    const prefix = locale === "en" ? "/en" : "";
    const words =
      locale === "en"
        ? {
            contact: "Contact us",
            feedback: "Feedback",
            sent: "your feedback reached the admins",
            received: "Received",
            links: "Friend links",
            school: "School zone",
          }
        : { contact: "联系我们", feedback: "意见反馈", sent: "管理员已收到", received: "已收到", links: "友情链接", school: "学校专区" };

    it(`leads from the footer to contact, sends feedback, lists friend links and the schools (${locale})`, async () => {
      const { context, page } = await newVisitor({ locale });
      await signInAsNewUser(context);
      await page.goto(`${prefix}/`);
      await page.locator(`footer a[href="${prefix}/contact"]`).click();
      await page.waitForURL(`**${prefix}/contact`);
      // The router changes the address before it renders the new page: wait for its heading.
      await expect.poll(() => page.locator("h1").textContent()).toBe(words.contact);

      await page.goto(`${prefix}/feedback`);
      expect(await page.locator("h1").textContent()).toBe(words.feedback);
      const message = uniqueName(locale === "en" ? "The editor loses my draft " : "编辑器丢了草稿 ");
      await page.locator("#feedback-category").selectOption("bug");
      await page.locator("#feedback-message").fill(message);
      await page.getByTestId("feedback-submit").click();
      await page.getByTestId("feedback-sent").waitFor();
      expect(await page.getByTestId("feedback-sent").textContent()).toContain(words.sent);
      // Listed among the sender's own, with its status.
      const mine = page.locator("li", { hasText: message });
      expect(await mine.count()).toBe(1);
      expect(await mine.textContent()).toContain(words.received);

      await page.goto(`${prefix}/link`);
      expect(await page.locator("h1").textContent()).toBe(words.links);
      // The demo store's curated links.
      const links = page.getByTestId("friend-links");
      expect(await links.locator('a[href="https://arxiv.org/"]').count()).toBe(1);
      expect(await links.locator('a[href="https://zh.wikipedia.org/"]').count()).toBe(1);

      await page.goto(`${prefix}/school`);
      expect(await page.locator("h1").textContent()).toBe(words.school);
      expect(await page.getByTestId("house-list").locator("li").count()).toBeGreaterThan(0);
      await context.close();
    });
  }
});
