import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { closeBrowser, hydrated, launchBrowser, newVisitor, seriousViolations, signInAsNewUser } from "./browser.ts";

const poll = (read: () => Promise<string | null>) => expect.poll(read, { timeout: 20_000 });
const thread = (page: Page) => () => page.getByTestId("chat-messages").textContent();

async function send(page: Page, text: string): Promise<void> {
  await page.locator("#chat-text").fill(text);
  await page.locator("button[value=send]").click();
}

describe("private chat", () => {
  beforeAll(launchBrowser);
  afterAll(closeBrowser);

  it("A starts a chat from B's profile, both see messages live with read receipts, a private message away from its thread is a toast, B blocks A and A's open thread says so at once (zh, one English page)", async () => {
    const a = await newVisitor();
    const b = await newVisitor({ bypassCSP: true });
    const accountA = await signInAsNewUser(a.context);
    const accountB = await signInAsNewUser(b.context);

    // A opens B's profile and starts a chat.
    await a.page.goto(`/profile/${accountB.username}`);
    await hydrated(a.page);
    await a.page.getByTestId("start-chat").click();
    await a.page.waitForURL(`**/messages/chat/${accountB.username}`);
    await hydrated(a.page);

    // B waits in the conversation list. Its live stream resumes from where the page was rendered,
    // so a message sent before the stream is connected is pushed all the same.
    await b.page.goto("/messages/chat");
    await hydrated(b.page);

    await send(a.page, "你好，B！");
    await poll(thread(a.page)).toContain("你好，B！");
    await poll(() => b.page.getByTestId("conversations").textContent()).toContain("你好，B！");
    // Away from the thread, a new private message is also a toast, as answers and mentions are.
    await poll(() => b.page.getByTestId("live-toast").textContent()).toMatch(new RegExp(`${accountA.username} 发来私信：\\s*你好，B！`));

    // B opens the thread: A's message is read, and A sees the receipt live.
    await b.page.getByRole("link", { name: accountA.username }).click();
    await b.page.waitForURL(`**/messages/chat/${accountA.username}`);
    await hydrated(b.page);
    await poll(() => a.page.getByTestId("chat-receipt").last().textContent()).toContain("已读");
    expect(await seriousViolations(b.page)).toEqual([]);

    // B answers; A sees it without a reload.
    await send(b.page, "你好 A，收到");
    await poll(thread(a.page)).toContain("你好 A，收到");

    // A's open thread with B shows B's answer, never a toast about it.
    expect(await a.page.getByTestId("live-toast").count()).toBe(0);

    // B blocks A; A's open thread says so at once, before A tries to send, and offers no send form.
    await b.page.getByTestId("block-button").click();
    await poll(() => b.page.getByTestId("block-button").textContent()).toBe("解除拉黑");
    await poll(() => a.page.getByTestId("blocked-you").textContent()).toContain("对方已将你拉黑");
    expect(await a.page.locator("#chat-text").count()).toBe(0);

    // The English thread says the same in English.
    await a.page.goto(`/en/messages/chat/${accountB.username}`);
    await hydrated(a.page);
    await poll(() => a.page.locator(".chat-thread").textContent()).toContain("This user has blocked you");
    expect(await a.page.locator("#chat-text").count()).toBe(0);

    await a.context.close();
    await b.context.close();
  });
});
