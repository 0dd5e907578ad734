import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { closeBrowser, launchBrowser, newVisitor, signInAsNewUser } from "./browser.ts";
import { htmlFile, testJpegWithExif, testPng } from "../support/images.ts";

beforeAll(launchBrowser);

/** The machine may be busy: give the page time to answer. */
const poll = <T>(read: () => Promise<T>) => expect.poll(read, { timeout: 15_000 });

/** The profile form of /account/profile (the page has its password and notification forms too, each with its own button). */
const profileForm = (page: Page) => page.locator("form:has(input[name=intent][value=profile])");
afterAll(closeBrowser);

const texts = {
  zh: {
    prefix: "",
    checkin: "签到",
    checkedIn: "已签到",
    checkinSuccess: "签到成功！+10 金币",
    oneDay: "1 天",
    save: "保存",
    saved: "修改成功",
    nickname: "昵称",
    signature: "个性签名",
    upload: "上传",
    avatarSaved: "头像保存成功",
    wrongType: "只能上传 JPG 或 PNG 图片。",
    follow: "关注",
    unfollow: "取消关注",
    loginToFollow: "登录后关注",
    badge: "注册用户",
    newFollowers: "关注了你",
    activityFollowed: "关注了",
  },
  en: {
    prefix: "/en",
    checkin: "Check in",
    checkedIn: "Checked in",
    checkinSuccess: "Checked in! +10 gold",
    oneDay: "1 day",
    save: "Save",
    saved: "Modified",
    nickname: "Nickname",
    signature: "Signature",
    upload: "Upload",
    avatarSaved: "Avatar saved",
    wrongType: "Only JPG or PNG images are allowed.",
    follow: "Follow",
    unfollow: "Unfollow",
    loginToFollow: "Log in to follow",
    badge: "Registered",
    newFollowers: "followed you",
    activityFollowed: "Followed",
  },
} as const;

/**
 * Each journey runs in one language (the centre in Chinese, following in English; the plain-form
 * test in English again), with a short check of the other language's texts where a journey leaves
 * a page out (common/i18n.test.ts checks the catalogs match).
 */
const journeyLanguage = { centre: "zh", follow: "en" } as const satisfies Record<string, keyof typeof texts>;

describe.each(["zh", "en"] as const)("personal centre in the browser (%s)", (language) => {
  const text = texts[language];
  const journey = (name: keyof typeof journeyLanguage, title: string, test: () => Promise<void>) => {
    if (journeyLanguage[name] === language) it(title, test);
  };

  journey("centre", "checks in once, edits the profile and uploads an avatar shown in the header", async () => {
    const { context, page } = await newVisitor();
    const { username } = await signInAsNewUser(context);

    await page.goto(`${text.prefix}/account/home`);
    const card = page.getByTestId("checkin-card");
    await card.getByRole("button", { name: text.checkin, exact: true }).click();
    await poll(() => page.getByTestId("checkin-message").textContent()).toBe(text.checkinSuccess);
    await poll(() => page.getByTestId("checkin-button").textContent()).toBe(text.checkedIn);
    expect(await page.getByTestId("checkin-button").isDisabled()).toBe(true);
    expect(await page.getByTestId("checkin-consecutive").textContent()).toBe(text.oneDay);
    expect(await page.getByTestId("checkin-total").textContent()).toBe(text.oneDay);
    expect(await page.getByTestId("gold").textContent()).toBe("10");
    // A reload still says so: the state is the server's.
    await page.reload();
    expect(await page.getByTestId("checkin-button").textContent()).toBe(text.checkedIn);

    await page.goto(`${text.prefix}/account/profile`);
    const nickname = `N${username}`.slice(0, 20);
    await page.getByLabel(text.nickname, { exact: true }).fill("");
    await profileForm(page).getByRole("button", { name: text.save }).click();
    await poll(() => page.locator('[data-field-error="profile-nickname"]').count()).toBe(1);
    await page.getByLabel(text.nickname, { exact: true }).fill(nickname);
    await page.getByLabel(text.signature, { exact: true }).fill("Curious about everything");
    await profileForm(page).getByRole("button", { name: text.save }).click();
    await poll(() => page.getByRole("status").first().textContent()).toBe(text.saved);
    await poll(() => page.getByTestId("avatar-menu").textContent()).toContain(nickname);

    await page.goto(`${text.prefix}/account/avatar`);
    await page.setInputFiles("#avatar-file", { name: "page.png", mimeType: "text/html", buffer: htmlFile });
    await poll(() => page.locator("#avatar-file-error").textContent()).toBe(text.wrongType);
    await page.setInputFiles("#avatar-file", { name: "me.jpg", mimeType: "image/jpeg", buffer: await testJpegWithExif(400, 300) });
    await page.getByRole("button", { name: text.upload }).click();
    await poll(() => page.getByRole("status").first().textContent()).toBe(text.avatarSaved);
    await poll(() => page.getByTestId("avatar-large").getAttribute("src")).toMatch(/^\/attach\/[A-Za-z0-9_-]{22,}$/);
    await poll(() => page.locator(".site-avatar-image").first().getAttribute("src")).toMatch(/^\/attach\//);
    const headerAvatar = await page.locator(".site-avatar-image").first().getAttribute("src");
    const served = await page.request.get(headerAvatar!);
    expect(served.headers()["content-type"]).toBe("image/jpeg");
    expect(served.headers()["x-content-type-options"]).toBe("nosniff");

    await page.goto(`${text.prefix}/profile/${username}`);
    expect(await page.locator("h1").textContent()).toContain(nickname);
    expect(await page.getByTestId("user-type-badge").textContent()).toBe(text.badge);
    expect(await page.getByTestId("profile-consecutive").textContent()).toBe("1");
    expect(await page.getByTestId("profile-total").textContent()).toBe("1");
    expect(await page.getByTestId("follow-button").count()).toBe(0);
    // Someone else's profile offers to follow them, in this language too.
    await page.goto(`${text.prefix}/profile/demo`);
    expect(await page.getByTestId("follow-button").textContent()).toBe(text.follow);
    await context.close();
  });

  journey("follow", "follows and unfollows from a public profile; the followee sees the new follower", async () => {
    const star = await newVisitor();
    const { username: starName } = await signInAsNewUser(star.context);
    const fan = await newVisitor();
    const { username: fanName } = await signInAsNewUser(fan.context);

    const anonymous = await newVisitor();
    await anonymous.page.goto(`${text.prefix}/profile/${starName}`);
    expect(await anonymous.page.getByRole("link", { name: text.loginToFollow }).count()).toBe(1);
    expect(await anonymous.page.getByTestId("follow-button").count()).toBe(0);
    await anonymous.context.close();

    const { page } = fan;
    await page.goto(`${text.prefix}/profile/${starName}`);
    expect(await page.getByTestId("followers-count").textContent()).toBe("0");
    await page.getByTestId("follow-button").click();
    await poll(() => page.getByTestId("follow-button").textContent()).toBe(text.unfollow);
    await poll(() => page.getByTestId("followers-count").textContent()).toBe("1");
    await page.getByTestId("follow-button").click();
    await poll(() => page.getByTestId("follow-button").textContent()).toBe(text.follow);
    await poll(() => page.getByTestId("followers-count").textContent()).toBe("0");
    await page.getByTestId("follow-button").click();
    await poll(() => page.getByTestId("followers-count").textContent()).toBe("1");

    await page.goto(`${text.prefix}/profile/${fanName}?tab=activity`);
    await poll(() => page.getByTestId("activity-list").textContent()).toContain(text.activityFollowed);

    await star.page.goto(`${text.prefix}/messages/like_attention`);
    await poll(() => star.page.getByTestId("notifications").textContent()).toContain(text.newFollowers);
    expect(await star.page.getByTestId("notifications").getByRole("link").first().textContent()).toBe(fanName);
    await star.context.close();
    await fan.context.close();
  });
});

describe("personal centre without JavaScript", () => {
  it("checks in, edits the profile and uploads an avatar with plain form posts (en)", async () => {
    const { context, page } = await newVisitor({ javaScriptEnabled: false, locale: "en" });
    await signInAsNewUser(context);
    await page.goto("/en/account/home");
    await page.getByTestId("checkin-button").click();
    await page.waitForLoadState();
    await poll(() => page.getByTestId("checkin-message").textContent()).toBe(texts.en.checkinSuccess);
    await page.goto("/en/account/profile");
    await page.getByLabel(texts.en.signature, { exact: true }).fill("Plain and simple");
    await profileForm(page).getByRole("button", { name: texts.en.save }).click();
    await page.waitForLoadState();
    await poll(() => page.getByRole("status").first().textContent()).toBe(texts.en.saved);
    await page.goto("/en/account/avatar");
    await page.setInputFiles("#avatar-file", { name: "me.png", mimeType: "image/png", buffer: await testPng(300, 300) });
    await page.getByRole("button", { name: texts.en.upload }).click();
    await page.waitForLoadState();
    await poll(() => page.getByRole("status").first().textContent()).toBe(texts.en.avatarSaved);
    expect(await page.getByTestId("avatar-large").getAttribute("src")).toMatch(/^\/attach\//);
    await context.close();
  });

  it("answers unknown attachments and users with the not-found screen", async () => {
    const { context, page } = await newVisitor({ locale: "en" });
    const attachment = await page.goto("/attach/AAAAAAAAAAAAAAAAAAAAAAAA");
    expect(attachment?.status()).toBe(404);
    expect(await page.locator("main").textContent()).toContain("/attach/AAAAAAAAAAAAAAAAAAAAAAAA");
    const profile = await page.goto("/en/profile/nobody_is_here");
    expect(profile?.status()).toBe(404);
    expect(await page.locator("main").textContent()).toContain("/en/profile/nobody_is_here");
    await context.close();
  });
});
