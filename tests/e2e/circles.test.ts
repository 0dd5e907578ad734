import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { baseURL, closeBrowser, launchBrowser, newVisitor, signInAsNewUser, uniqueName, hydrated } from "./browser.ts";
import { wholeSitemap } from "../support/sitemap.ts";
import { addCatalog, translator } from "../../common/i18n.ts";
import { htmlFile, testPng } from "../support/images.ts";
import { localizePath, type Locale } from "../../common/locale.ts";
import zhCircles from "../../common/locales/zh-CN/circles.json" with { type: "json" };
import enCircles from "../../common/locales/en/circles.json" with { type: "json" };

addCatalog("circles", { "zh-CN": zhCircles, en: enCircles });

beforeAll(launchBrowser);
afterAll(closeBrowser);

/** Server round trips on a busy machine take a while: wait up to 15 s for the page to show a change. */
const eventually = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 15_000 });

/** The whole button name, after an optional check mark: "Join" must not match "Joined" (nor 加入 match 已加入). */
const exactly = (text: string) => new RegExp(`^(✓ )?${text}$`);

const circleIdOf = (page: Page) => Number(/\/circles\/(\d+)$/.exec(new URL(page.url()).pathname)![1]);

/** The journey runs in Chinese; a smoke test goes through the same pages in English (common/i18n.test.ts checks the catalogs match). */
describe("circles in the browser (zh-CN)", () => {
  const locale: Locale = "zh-CN";
  const t = translator(locale);
  const path = (to: string) => localizePath(to, locale);

  it("create a circle → a sub-circle → a second user joins → promoted → edits categories → loses access when the visibility changes", async () => {
    const founder = await newVisitor({ locale });
    await signInAsNewUser(founder.context);
    const name = uniqueName("锈圈");

    // The founder creates a circle under the global village from the tree.
    await founder.page.goto(path("/circles"));
    await hydrated(founder.page);
    await founder.page.getByRole("link", { name: t("circles:create.title") }).click();
    await founder.page.waitForURL((url) => url.pathname === path("/circles/new"));
    await hydrated(founder.page);
    await founder.page.getByLabel(t("circles:create.name"), { exact: true }).fill(name);
    await founder.page.getByLabel(t("circles:create.description")).fill("系统编程。");
    // A page named .png is refused by its bytes, and the texts typed stay.
    await founder.page.setInputFiles("#circle-logo", { name: "logo.png", mimeType: "image/png", buffer: htmlFile });
    await founder.page.getByRole("button", { name: t("circles:create.submit") }).click();
    await founder.page.getByText(t("errors:image_type_not_allowed")).waitFor();
    expect(await founder.page.getByLabel(t("circles:create.name"), { exact: true }).inputValue()).toBe(name);
    // A real picture becomes the circle's logo, served from the attachment store.
    await founder.page.setInputFiles("#circle-logo", { name: "logo.png", mimeType: "image/png", buffer: await testPng(300, 200) });
    await founder.page.getByRole("button", { name: t("circles:create.submit") }).click();
    await founder.page.waitForURL((url) => /^\/(en\/)?circles\/\d+$/.test(url.pathname));
    await hydrated(founder.page);
    const circleId = circleIdOf(founder.page);
    await expect.poll(() => founder.page.locator("h1").textContent()).toBe(name);
    const logo = await founder.page.locator('main img.circle-logo[src^="/attach/"]').first().getAttribute("src");
    const served = await founder.page.request.get(logo!);
    expect(served.headers()["content-type"]).toBe("image/png");
    await expect.poll(() => founder.page.locator(".staff-list").textContent()).toContain(t("circles:roles.founder"));

    // …and a sub-circle of it.
    const subName = `${name}异步`;
    await founder.page.getByRole("link", { name: t("circles:page.create_subcircle") }).click();
    await founder.page.waitForURL((url) => url.pathname === path(`/circles/${circleId}/new`));
    await hydrated(founder.page);
    await founder.page.getByLabel(t("circles:create.name"), { exact: true }).fill(subName);
    await founder.page.getByRole("button", { name: t("circles:create.submit") }).click();
    await founder.page.waitForURL((url) => /\/circles\/\d+$/.test(url.pathname) && !url.pathname.endsWith(`/${circleId}`));
    await hydrated(founder.page);
    const subId = circleIdOf(founder.page);
    await expect.poll(() => founder.page.locator(".breadcrumb").textContent()).toContain(name);

    // A second user finds the circle through the tree's filter and joins it.
    const second = await newVisitor({ locale });
    const { username: secondName } = await signInAsNewUser(second.context);
    await second.page.goto(`${path("/circles")}?q=${encodeURIComponent(name)}`);
    await hydrated(second.page);
    await second.page.getByRole("link", { name, exact: true }).click();
    await second.page.waitForURL((url) => url.pathname === path(`/circles/${circleId}`));
    await hydrated(second.page);
    await second.page.getByRole("button", { name: exactly(t("circles:page.join")) }).click();
    await eventually(() => second.page.getByRole("button", { name: exactly(t("circles:page.joined")) }).count()).toBe(1);
    expect(await second.page.locator(".circle-counts").first().textContent()).toContain(t("circles:counts.members", { count: 2 }));
    expect(await second.page.getByRole("link", { name: t("circles:page.manage") }).count()).toBe(0);

    // The founder makes them an administrator on the members page.
    await founder.page.goto(path(`/circles/${circleId}/settings/members`));
    await hydrated(founder.page);
    const row = founder.page.locator(`tr[data-username="${secondName}"]`);
    await row.getByRole("combobox").selectOption("admin");
    await row.getByRole("button", { name: t("circles:members.set_role") }).click();
    await founder.page.getByText(t("circles:members.role_saved")).waitFor();
    await eventually(() => row.locator("td").nth(2).textContent()).toBe(t("circles:roles.admin"));

    // The new administrator edits the writing categories.
    await second.page.reload();
    await hydrated(second.page);
    await second.page.getByRole("link", { name: t("circles:page.manage") }).click();
    await second.page.waitForURL((url) => url.pathname === path(`/circles/${circleId}/settings`));
    await hydrated(second.page);
    await second.page.getByRole("link", { name: t("circles:settings.categories") }).click();
    await second.page.waitForURL((url) => url.pathname.endsWith("/settings/categories"));
    await hydrated(second.page);
    const addCategory = async (label: string, text: string) => {
      await second.page.locator(label).fill(text);
      await second.page.locator(label).press("Enter");
    };
    await addCategory("#category-name", "C++");
    await eventually(() => second.page.getByRole("alert").textContent()).toBe(t("validation:category_name_chars"));
    await addCategory("#category-name", "语言");
    await second.page.getByText(t("circles:categories.created")).waitFor();
    await addCategory("#category-name", "工具");
    await eventually(() => second.page.locator('li[data-level="category"]').count()).toBe(2);
    await addCategory("#subclass-name", "所有权 101");
    await eventually(() => second.page.locator('li[data-level="subclass"]').count()).toBe(1);
    const tools = "工具";
    await second.page.getByRole("button", { name: t("circles:categories.move_up", { name: tools }) }).click();
    await eventually(async () =>
      second.page
        .locator('li[data-level="category"] > .category-row input[name=name]')
        .evaluateAll((inputs) => inputs.map((input) => (input as HTMLInputElement).value)),
    ).toEqual([tools, "语言"]);
    // A category with subclasses is in use and stays.
    await second.page.getByRole("button", { name: t("circles:categories.delete_label", { name: "语言" }) }).click();
    await eventually(() => second.page.getByRole("alert").textContent()).toBe(t("errors:category_in_use"));

    // The second user (a member of the parent, not of the sub-circle) sees the sub-circle until the founder hides it.
    await second.page.goto(path(`/circles/${subId}`));
    await hydrated(second.page);
    await expect.poll(() => second.page.locator("h1").textContent()).toBe(subName);
    // A visitor's copy of the page is cached…
    const anonymousUrl = `${baseURL()}${path(`/circles/${subId}`)}`;
    expect((await fetch(anonymousUrl)).status).toBe(200);
    // Another test file creating a circle at this moment drops cached circle pages: ask again then.
    await eventually(async () => (await fetch(anonymousUrl)).headers.get("x-page-cache")).toBe("hit");
    await founder.page.goto(path(`/circles/${subId}/settings`));
    await hydrated(founder.page);
    await founder.page.getByLabel(t("circles:visibility.members"), { exact: true }).check();
    await founder.page.getByRole("button", { name: t("circles:settings.save"), exact: true }).click();
    await founder.page.getByText(t("circles:settings.saved")).waitFor();
    expect((await second.page.goto(path(`/circles/${subId}`)))?.status()).toBe(404);
    // …and dropped at once when the circle is hidden.
    expect((await fetch(anonymousUrl)).status).toBe(404);
    expect(await wholeSitemap(async (path) => (await fetch(`${baseURL()}${path}`)).text())).not.toContain(`/circles/${subId}<`);

    // Visible within the parent circle: members of the parent see it again.
    await founder.page.getByLabel(t("circles:visibility.parent"), { exact: true }).check();
    // The "saved" notice is still there from the last save: wait for this save's answer instead.
    const saved = founder.page.waitForResponse(
      (response) => response.request().method() === "POST" && response.url().includes(`/circles/${subId}/settings`),
    );
    await founder.page.getByRole("button", { name: t("circles:settings.save"), exact: true }).click();
    await saved;
    await founder.page.getByText(t("circles:settings.saved")).waitFor();
    expect((await second.page.goto(path(`/circles/${subId}`)))?.status()).toBe(200);

    // Leaving the parent asks first; afterwards the sub-circle is gone for them too.
    await second.page.goto(path(`/circles/${circleId}`));
    await hydrated(second.page);
    await second.page.getByRole("button", { name: exactly(t("circles:page.joined")) }).click();
    const dialog = second.page.getByRole("dialog");
    await dialog.getByRole("button", { name: t("circles:page.cancel") }).click();
    expect(await dialog.isVisible()).toBe(false);
    await second.page.getByRole("button", { name: exactly(t("circles:page.joined")) }).click();
    await dialog.getByRole("button", { name: t("circles:page.leave_confirm") }).click();
    await eventually(() => second.page.getByRole("button", { name: exactly(t("circles:page.join")) }).count()).toBe(1);
    expect((await second.page.goto(path(`/circles/${subId}`)))?.status()).toBe(404);

    await founder.context.close();
    await second.context.close();
  }, 240_000);
});

describe("circles in the browser (en)", () => {
  const t = translator("en");

  it("creates a circle and manages it: members, categories, visibility (smoke)", async () => {
    const founder = await newVisitor({ locale: "en" });
    const { username } = await signInAsNewUser(founder.context);
    const { page } = founder;
    const name = uniqueName("Rustaceans ");
    await page.goto("/en/circles");
    await hydrated(page);
    await page.getByRole("link", { name: t("circles:create.title") }).click();
    await page.waitForURL((url) => url.pathname === "/en/circles/new");
    await hydrated(page);
    await page.getByLabel(t("circles:create.name"), { exact: true }).fill(name);
    await page.getByLabel(t("circles:create.description")).fill("Systems programming.");
    await page.getByRole("button", { name: t("circles:create.submit") }).click();
    await page.waitForURL((url) => /^\/en\/circles\/\d+$/.test(url.pathname));
    await hydrated(page);
    const circleId = circleIdOf(page);
    await expect.poll(() => page.locator("h1").textContent()).toBe(name);
    await expect.poll(() => page.locator(".staff-list").textContent()).toContain(t("circles:roles.founder"));
    expect(await page.locator(".circle-counts").first().textContent()).toContain(t("circles:counts.members", { count: 1 }));

    await page.getByRole("link", { name: t("circles:page.manage") }).click();
    await page.waitForURL((url) => url.pathname === `/en/circles/${circleId}/settings`);
    await hydrated(page);
    await page.getByRole("link", { name: t("circles:settings.categories") }).click();
    await page.waitForURL((url) => url.pathname.endsWith("/settings/categories"));
    await hydrated(page);
    await page.locator("#category-name").fill("C++");
    await page.locator("#category-name").press("Enter");
    await eventually(() => page.getByRole("alert").textContent()).toBe(t("validation:category_name_chars"));
    await page.locator("#category-name").fill("Language");
    await page.locator("#category-name").press("Enter");
    await page.getByText(t("circles:categories.created")).waitFor();

    await page.goto(`/en/circles/${circleId}/settings/members`);
    await hydrated(page);
    await eventually(() => page.locator(`tr[data-username="${username}"] td`).nth(2).textContent()).toBe(t("circles:roles.founder"));

    await page.goto(`/en/circles/${circleId}/settings`);
    await hydrated(page);
    await page.getByLabel(t("circles:visibility.members"), { exact: true }).check();
    await page.getByRole("button", { name: t("circles:settings.save"), exact: true }).click();
    await page.getByText(t("circles:settings.saved")).waitFor();
    expect((await fetch(`${baseURL()}/en/circles/${circleId}`)).status).toBe(404);
    await founder.context.close();
  });
});

describe("circles without JavaScript", () => {
  it("joins and leaves with plain form posts, confirming on the page; management pages send visitors to log in", async () => {
    const { context, page } = await newVisitor({ javaScriptEnabled: false, locale: "en" });
    await signInAsNewUser(context);
    await page.goto("/en/circles/2");
    await page.getByRole("button", { name: exactly("Join") }).click();
    await page.getByText("You joined the circle.").waitFor();
    await page.getByRole("button", { name: exactly("Joined") }).click();
    // Without a dialog, the server asks on the page.
    await page.getByRole("alertdialog").getByRole("button", { name: "Leave" }).click();
    await page.getByText("You left the circle.").waitFor();
    expect(await page.getByRole("button", { name: exactly("Join") }).count()).toBe(1);
    await context.close();

    const anonymous = await newVisitor({ locale: "en" });
    await anonymous.page.goto("/en/circles/2/settings/members");
    await anonymous.page.waitForURL(
      (url) => url.pathname === "/en/login" && url.searchParams.get("next") === "/circles/2/settings/members",
    );
    await anonymous.context.close();
  }, 120_000);
});
