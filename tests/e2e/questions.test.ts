import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BrowserContext } from "playwright-core";
import { closeBrowser, hydrated, launchBrowser, newVisitor, signInAsNewUser, uniqueName } from "./browser.ts";

beforeAll(launchBrowser);
afterAll(closeBrowser);

/** Server round trips on a busy machine take a while: wait up to 30 s for the page to show a change. */
const eventually = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 30_000 });

/** Asks in the global village through the API, as the context's user; the question's path. */
async function askThroughApi(context: BrowserContext, title: string): Promise<string> {
  const { csrftoken } = (await (await context.request.get("/api/get_csrf_token/")).json()) as { csrftoken: string };
  const response = await context.request.post("/api/circles/1/questions/", { headers: { "x-csrftoken": csrftoken }, data: { title } });
  if (response.status() !== 201) throw new Error(`Asking failed (${response.status()}): ${await response.text()}`);
  return ((await response.json()) as { url: string }).url;
}

describe("questions and answers in the browser", () => {
  it("asks with similar questions shown, answers once, refuses a second answer, accepts, edits, opens the answer's page, comments on the answer and edits the question (zh)", async () => {
    const token = uniqueName("tok");
    const asker = await newVisitor();
    await signInAsNewUser(asker.context);
    // An earlier question sharing words with the one about to be asked.
    const earlierTitle = `线性代数怎么自学 ${token}`;
    await askThroughApi(asker.context, earlierTitle);

    await asker.page.goto("/circles/1/ask");
    await hydrated(asker.page);
    const title = `线性代数入门该看什么书 ${token}`;
    await asker.page.getByTestId("question-title").fill(title);
    await eventually(() => asker.page.getByTestId("similar-questions").textContent()).toContain(earlierTitle);
    await asker.page.locator(".cm-content").waitFor({ timeout: 30_000 });
    await asker.page.locator(".cm-content").click();
    await asker.page.keyboard.insertText("想找一本**讲得清楚**的教材。");
    await asker.page.getByTestId("ask-submit").click();
    await asker.page.waitForURL(/\/circles\/1\/questions\/\d+$/);
    const questionPath = new URL(asker.page.url()).pathname;
    await expect.poll(() => asker.page.locator("h1").textContent()).toBe(title);
    expect(await asker.page.locator("#question strong").first().textContent()).toBe("讲得清楚");

    // A second user opens the question in two tabs and answers in the first.
    const answerer = await newVisitor();
    const account = await signInAsNewUser(answerer.context);
    const first = answerer.page;
    const second = await answerer.context.newPage();
    for (const page of [first, second]) {
      await page.goto(questionPath);
      await hydrated(page);
    }
    await first.locator("#answer-box .cm-content").click();
    await first.keyboard.insertText("推荐《线性代数应该这样学》。");
    await first.getByTestId("answer-submit").click();
    await eventually(() => first.getByTestId("question-notice").textContent()).toBe("回答已发布。");
    await eventually(() => first.getByTestId("answer").first().textContent()).toContain("推荐《线性代数应该这样学》。");
    expect(await first.getByTestId("edit-my-answer").isVisible()).toBe(true);

    // The second tab still shows the answer box: its post is refused with the message.
    await second.locator("#answer-box .cm-content").click();
    await second.keyboard.insertText("再答一次。");
    await second.getByTestId("answer-submit").click();
    await eventually(() => second.getByTestId("answer-error").textContent()).toBe("你已经回答过这个问题了。");
    await eventually(() => second.getByTestId("edit-my-answer").isVisible()).toBe(true);

    // The asker accepts it.
    await asker.page.goto(questionPath);
    await hydrated(asker.page);
    await asker.page.getByTestId("accept-answer").click();
    await eventually(() => asker.page.getByTestId("accepted-badge").count()).toBe(1);
    await eventually(() => asker.page.getByTestId("withdraw-answer").isVisible()).toBe(true);

    // The answerer edits it from the question page, then reads it on its own page.
    await first.goto(questionPath);
    await hydrated(first);
    await first.getByTestId("edit-my-answer").click();
    await first.getByTestId("edit-answer-form").waitFor();
    await first.getByTestId("answer-content").fill("推荐《线性代数应该这样学》，配合习题。");
    await first.getByTestId("save-answer").click();
    await first.waitForURL(new RegExp(`${questionPath}/${account.username}\\?notice=edited`));
    await eventually(() => first.getByTestId("answer-page").textContent()).toContain("配合习题");
    expect(await first.getByTestId("answer-edited-at").isVisible()).toBe(true);
    expect(await first.getByTestId("answer-page").textContent()).toContain("已采纳");
    await first.getByTestId("all-answers").click();
    await first.waitForURL(new RegExp(`${questionPath}#answers$`));

    // The asker opens the answer's comments under it and comments; the answer's own page takes over.
    await asker.page.goto(questionPath);
    await hydrated(asker.page);
    await asker.page.getByTestId("answer-comments-toggle").click();
    const embedded = asker.page.getByTestId("embedded-comments");
    await embedded.waitFor({ timeout: 30_000 });
    await embedded.locator("textarea").first().fill("谢谢，很有帮助。");
    await embedded.locator('[data-testid$="-comment-submit"]').click();
    await asker.page.waitForURL(new RegExp(`${questionPath}/${account.username}\\?notice=commented#comment-\\d+$`));
    await eventually(() => asker.page.getByTestId("comments").textContent()).toContain("谢谢，很有帮助。");
    await asker.page.goto(questionPath);
    await eventually(() => asker.page.getByTestId("answer-comments-toggle").textContent()).toBe("1 条评论");

    // The asker edits the question on the ask page.
    await hydrated(asker.page);
    await asker.page.getByTestId("edit-question").click();
    await asker.page.waitForURL(/\/circles\/1\/ask\?edit=\d+$/);
    await hydrated(asker.page);
    await eventually(() => asker.page.getByTestId("question-title").inputValue()).toBe(title);
    await asker.page.getByTestId("question-title").fill(`${title}（已补充）`);
    await asker.page.getByTestId("save-question").click();
    await asker.page.waitForURL(new RegExp(`${questionPath}\\?notice=edited_question$`));
    await eventually(() => asker.page.locator("h1").textContent()).toBe(`${title}（已补充）`);

    await asker.context.close();
    await answerer.context.close();
  });

  it("reads a question, its accepted answer and the sign-in prompt in English, and finds it in the home feed", async () => {
    const asker = await newVisitor();
    await signInAsNewUser(asker.context);
    const title = uniqueName("How do I start with category theory ");
    const path = await askThroughApi(asker.context, title);
    const visitor = await newVisitor({ locale: "en" });
    await visitor.page.goto(`/en${path}`);
    await hydrated(visitor.page);
    expect(await visitor.page.locator("h1").textContent()).toBe(title);
    expect(await visitor.page.getByText("0 answers").first().isVisible()).toBe(true);
    expect(await visitor.page.getByText("Sign in to answer").isVisible()).toBe(true);
    await visitor.page.getByRole("link", { name: "Q&A" }).first().click();
    await eventually(() => visitor.page.getByTestId("question-list").textContent()).toContain(title);
    // The home feed shows it among everything new.
    await visitor.page.goto("/en/?tab=all");
    await eventually(() => visitor.page.getByTestId("feed-list").textContent()).toContain(title);
    await asker.context.close();
    await visitor.context.close();
  });
});
