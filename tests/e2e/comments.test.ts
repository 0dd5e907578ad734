import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import {
  baseURL,
  closeBrowser,
  launchBrowser,
  newVisitor,
  signInAsNewUser,
  uniqueName,
  seriousViolations,
  hydrated,
  publishArticle,
} from "./browser.ts";
import { addCatalog, translator } from "../../common/i18n.ts";
import { localizePath, type Locale } from "../../common/locale.ts";
import zhComments from "../../common/locales/zh-CN/comments.json" with { type: "json" };
import enComments from "../../common/locales/en/comments.json" with { type: "json" };

addCatalog("comments", { "zh-CN": zhComments, en: enComments });

beforeAll(launchBrowser);
afterAll(closeBrowser);

const eventually = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 20_000 });

/** The comment or reply (its own block, not its replies) whose text contains `text`. */
const commentWith = (page: Page, text: string) =>
  page.locator("article.comment", { has: page.locator(".comment-body", { hasText: text }) });

/**
 * Each journey runs in one language (with JavaScript in Chinese, without it in English), so the
 * comment section is checked in both (common/i18n.test.ts checks the catalogs match).
 */
const journeyLanguage = { withScript: "zh-CN", withoutScript: "en" } as const satisfies Record<string, Locale>;

describe.each(["zh-CN", "en"] as const)("comments in the browser (%s)", (locale: Locale) => {
  const t = translator(locale);
  const path = (to: string) => localizePath(to, locale);
  const journey = (name: keyof typeof journeyLanguage, title: string, test: () => Promise<void>) => {
    if (journeyLanguage[name] === locale) it(title, test);
  };

  journey(
    "withScript",
    "comment with JavaScript (errors keep the text) → reply with a mention → delete with confirmation; visitors are asked to log in",
    async () => {
      const writer = await newVisitor({ locale });
      const { username: writerName } = await signInAsNewUser(writer.context);
      const articlePath = path(await publishArticle(writer.context, uniqueName("Comments ")));
      const reader = await newVisitor({ locale, bypassCSP: true });
      const { username: readerName } = await signInAsNewUser(reader.context);

      const { page } = reader;
      await page.goto(articlePath);
      await hydrated(page);
      await expect(page.locator("#comments-title").innerText()).resolves.toBe(t("comments:title", { count: 0 }));
      // Marks this document: a full reload would lose it.
      await page.evaluate(() => ((window as unknown as { stillHere: boolean }).stillHere = true));
      const box = page.locator("#comment-body");
      await box.fill("   ");
      await page.getByTestId("comment-submit").click();
      await page.getByText(t("validation:comment_required")).waitFor();
      const tooLong = "长".repeat(1001);
      await box.fill(tooLong);
      await page.getByTestId("comment-submit").click();
      await page.getByText(t("validation:comment_too_long")).waitFor();
      await expect(box.inputValue()).resolves.toBe(tooLong);

      const text = `${uniqueName("First ")}\nsee https://example.com/page.`;
      await box.fill(text);
      await page.getByTestId("comment-submit").click();
      await page
        .getByTestId("comment-notice")
        .filter({ hasText: t("comments:notice.commented") })
        .waitFor();
      const mine = commentWith(page, text.split("\n")[0]!);
      await mine.waitFor();
      await expect(mine.locator(".comment-body").innerText()).resolves.toBe(text);
      await expect(mine.locator('.comment-body a[href="https://example.com/page"]').getAttribute("rel")).resolves.toBe(
        "nofollow ugc noopener",
      );
      await eventually(() => box.inputValue()).toBe("");
      await expect(page.locator("#comments-title").innerText()).resolves.toBe(t("comments:title", { count: 1 }));
      await expect(page.evaluate(() => (window as unknown as { stillHere?: boolean }).stillHere)).resolves.toBe(true);

      // The writer replies; the reply names the reader.
      await writer.page.goto(articlePath);
      await hydrated(writer.page);
      const target = commentWith(writer.page, text.split("\n")[0]!);
      await target.getByTestId("reply-toggle").click();
      const replyText = uniqueName("Thanks ");
      await target.locator('textarea[id^="reply-"]').fill(replyText);
      await target.getByRole("button", { name: t("comments:reply_submit"), exact: true }).click();
      const reply = commentWith(writer.page, replyText);
      await reply.waitFor();
      await expect(reply.getByTestId("reply-mention").innerText()).resolves.toBe(`@${readerName}`);
      await expect(writer.page.locator("#comments-title").innerText()).resolves.toBe(t("comments:title", { count: 2 }));

      // The reader deletes their comment after confirming in the dialog: its reply stays under a placeholder.
      await page.reload();
      await hydrated(page);
      const own = commentWith(page, text.split("\n")[0]!);
      await own.getByRole("button", { name: t("comments:delete_label", { name: readerName }) }).click();
      const dialog = page.locator("dialog[open]");
      await dialog.getByText(t("comments:delete_question")).waitFor();
      await dialog.getByRole("button", { name: t("comments:delete_confirm") }).click();
      await page
        .getByTestId("comment-notice")
        .filter({ hasText: t("comments:notice.deleted") })
        .waitFor();
      await page
        .getByTestId("comment-deleted")
        .filter({ hasText: t("comments:deleted") })
        .waitFor();
      await commentWith(page, replyText).waitFor();
      await expect(page.getByText(text.split("\n")[0]!).count()).resolves.toBe(0);
      // The section with a placeholder, a reply, the forms and an open reply form passes axe.
      await commentWith(page, replyText).getByTestId("reply-toggle").click();
      expect(await seriousViolations(page)).toEqual([]);

      // A visitor reads the comments and is asked to log in to comment.
      const visitor = await newVisitor({ locale, colorScheme: "dark", bypassCSP: true });
      await visitor.page.goto(articlePath);
      await commentWith(visitor.page, replyText).waitFor();
      expect(await seriousViolations(visitor.page)).toEqual([]);
      const login = visitor.page.getByTestId("comment-login");
      await expect(login.innerText()).resolves.toBe(t("comments:login"));
      await expect(login.getAttribute("href")).resolves.toBe(`${path("/login")}?next=${encodeURIComponent(articlePath)}`);
      await expect(visitor.page.locator("#comment-body").count()).resolves.toBe(0);
      expect(writerName).toBeTruthy();
      await Promise.all([writer.context.close(), reader.context.close(), visitor.context.close()]);
    },
  );

  journey("withoutScript", "comments, replies and deletes without JavaScript (plain form posts, the question on the page)", async () => {
    const writer = await newVisitor({ locale });
    await signInAsNewUser(writer.context);
    const articlePath = path(await publishArticle(writer.context, uniqueName("Plain ")));
    const setup = await newVisitor({ locale });
    const { username } = await signInAsNewUser(setup.context);
    const context = await setup.context
      .browser()!
      .newContext({ baseURL: baseURL(), locale, javaScriptEnabled: false, storageState: await setup.context.storageState() });
    const page = await context.newPage();

    await page.goto(articlePath);
    await page.locator("#comment-body").fill(" \n ");
    await page.getByTestId("comment-submit").click();
    await page.getByText(t("validation:comment_required")).waitFor();

    const text = uniqueName("Plain comment ");
    await page.locator("#comment-body").fill(text);
    await page.getByTestId("comment-submit").click();
    await page
      .getByTestId("comment-notice")
      .filter({ hasText: t("comments:notice.commented") })
      .waitFor();
    const mine = commentWith(page, text);
    await mine.waitFor();

    // A reply through the <details> form, replying to one's own comment.
    await mine.getByTestId("reply-toggle").click();
    const replyText = uniqueName("Plain reply ");
    await mine.locator('textarea[id^="reply-"]').fill(replyText);
    await mine.getByRole("button", { name: t("comments:reply_submit"), exact: true }).click();
    const reply = commentWith(page, replyText);
    await reply.waitFor();
    await expect(reply.getByTestId("reply-mention").innerText()).resolves.toBe(`@${username}`);

    // Deleting asks on the page first; the answer deletes.
    await commentWith(page, replyText)
      .getByRole("button", { name: t("comments:delete_label", { name: username }) })
      .click();
    const question = page.locator(".confirm-panel");
    await question.getByText(t("comments:delete_question")).waitFor();
    await expect(commentWith(page, replyText).count()).resolves.toBe(1);
    await question.getByRole("button", { name: t("comments:delete_confirm") }).click();
    await page
      .getByTestId("comment-notice")
      .filter({ hasText: t("comments:notice.deleted") })
      .waitFor();
    await expect(commentWith(page, replyText).count()).resolves.toBe(0);
    await commentWith(page, text).waitFor();
    await Promise.all([context.close(), setup.context.close(), writer.context.close()]);
  });
});
