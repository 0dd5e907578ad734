import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { closeBrowser, launchBrowser, newVisitor } from "./browser.ts";
import { startServer, stop } from "./global-setup.ts";
import { embeddedDataPath, openEmbeddedDatabase } from "../../server/db/client.ts";
import { users } from "../../server/db/schema/index.ts";
import { seed } from "../../server/db/seed.ts";
import { createSessionFor, createUser, createWriting } from "../support/factories.ts";
import { grant } from "../support/money.ts";
import { testPng } from "../support/images.ts";

/*
 * Self-serve ads in a real browser, in both languages, on a server of its own: an advertiser
 * creates a campaign on /ads/start (uploading its image), an admin approves it on /admin/ads, an
 * anonymous reader sees it labelled beside an article and clicks it (the click redirect counts
 * it), and the advertiser finds the click on /ads/me.
 */
let server: ChildProcess;
let baseURL: string;
let dataDir: string;
const sessions: Record<"admin" | "advertiser", string> = { admin: "", advertiser: "" };
let articlePath = "";

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), "circles-e2e-ads-"));
  const handle = await openEmbeddedDatabase(embeddedDataPath(dataDir));
  try {
    await handle.migrate();
    await seed(handle);
    const admin = await createUser(handle.db, { username: "ads_admin" });
    await handle.db.update(users).set({ siteRole: "admin" }).where(eq(users.id, admin.id));
    sessions.admin = await createSessionFor(handle.db, admin, true);
    const advertiser = await createUser(handle.db, { username: "ads_advertiser" });
    await grant(handle.db, advertiser.id, "sinecoin", 1_000);
    sessions.advertiser = await createSessionFor(handle.db, advertiser, true);
    const author = await createUser(handle.db, { username: "ads_author", userType: "Official users" });
    const writing = await createWriting(handle.db, author, { circleId: 1, title: "An article with an ad beside it" });
    articlePath = `/circles/1/writing/${writing.id}`;
  } finally {
    await handle.close();
  }
  ({ server, baseURL } = await startServer(dataDir));
  await launchBrowser();
}, 120_000);

afterAll(async () => {
  await closeBrowser();
  if (server) await stop(server);
  rmSync(dataDir, { recursive: true, force: true });
});

async function visitorAs(role: "admin" | "advertiser" | null, locale: string) {
  const visitor = await newVisitor({ baseURL, locale });
  if (role) {
    const { hostname } = new URL(baseURL);
    await visitor.context.addCookies([{ name: "sessionid", value: sessions[role], domain: hostname, path: "/", httpOnly: true }]);
  }
  return visitor;
}

describe("self-serve ads", () => {
  for (const [lang, prefix, locale, language, label] of [
    ["zh", "", "zh-CN", "zh-CN", "广告"],
    ["en", "/en", "en", "en", "Ad"],
  ] as const) {
    it(
      `an advertiser's campaign is approved, shown labelled beside an article, clicked and counted (${lang})`,
      { timeout: 120_000 },
      async () => {
        const title = `Rust course ${lang}`;
        // The advertiser creates the campaign, its image uploaded by the page.
        const advertiser = await visitorAs("advertiser", locale);
        await advertiser.page.goto(`${prefix}/ads/start`);
        const form = advertiser.page.locator("form", { has: advertiser.page.locator("input[name=intent][value=create]") });
        await form.locator("input[name=title]").fill(title);
        await form.locator("textarea[name=text]").fill(`Learn Rust gently, ${lang}.`);
        // The live preview shows the card as it will look.
        await expect.poll(() => advertiser.page.getByText(title).count()).toBeGreaterThan(0);
        await form.locator("input[name=image]").setInputFiles({ name: "ad.png", mimeType: "image/png", buffer: await testPng(300, 200) });
        await expect.poll(() => form.locator("input[name=image_file_id]").inputValue(), { timeout: 20_000 }).not.toBe("");
        await form.locator("input[name=url]").fill(`https://example.com/rust-${lang}`);
        // Shown only in this language, paid per click.
        for (const other of ["zh-CN", "en"]) if (other !== language) await form.locator(`input[name=languages][value=${other}]`).uncheck();
        await form.locator("input[name=model][value=cpc]").check();
        await form.locator("input[name=price]").fill("2");
        await form.locator("input[name=budget]").fill("100");
        await form.locator("input[name=daily_cap]").fill("50");
        await form.locator("button[type=submit]").click();
        await expect.poll(() => advertiser.page.url()).toContain(`${prefix}/ads/me`);
        const card = advertiser.page.locator("article", { hasText: title });
        await expect.poll(() => card.textContent()).toContain(lang === "zh" ? "待审核" : "Pending review");

        // An admin approves it in the admin area.
        const admin = await visitorAs("admin", locale);
        await admin.page.goto(`${prefix}/admin/ads`);
        const review = admin.page.locator("article", { hasText: title });
        await review
          .locator("form", { has: admin.page.locator("input[name=intent][value=approve]") })
          .locator("button")
          .click();
        await expect
          .poll(() => admin.page.locator("p[role=status]").textContent())
          .toBe(lang === "zh" ? "已通过：预算已冻结。" : "Approved: the budget is held.");

        // A reader sees it beside the article, labelled, and clicks it (the destination is answered here).
        const reader = await visitorAs(null, locale);
        await reader.context.route("https://example.com/**", (route) =>
          route.fulfill({ status: 200, contentType: "text/html", body: "<p>landed</p>" }),
        );
        await reader.page.goto(`${prefix}${articlePath}`);
        const slot = reader.page.locator(".ad-slot", { hasText: title });
        await expect.poll(() => slot.count(), { timeout: 20_000 }).toBe(1);
        expect(await slot.locator(".ad-label").textContent()).toBe(label);
        expect(await slot.locator("a").getAttribute("rel")).toBe("sponsored");
        // Not inside the author's text.
        expect(await reader.page.locator(".article-body .ad-slot, .writing-body .ad-slot").count()).toBe(0);
        await slot.scrollIntoViewIfNeeded();
        const [landing] = await Promise.all([reader.context.waitForEvent("page"), slot.locator("a").click()]);
        await expect.poll(() => landing.url()).toBe(`https://example.com/rust-${lang}`);

        // The advertiser sees the served ad and its click (counts are flushed within a second).
        await expect
          .poll(
            async () => {
              await advertiser.page.goto(`${prefix}/ads/me`);
              const row = advertiser.page.locator("article", { hasText: title }).locator("tbody tr").last();
              return (await row.locator("td").allTextContents()).slice(0, 4);
            },
            { timeout: 20_000, interval: 1_000 },
          )
          .toEqual(["1", expect.stringMatching(/^[01]$/), "1", "100.00%"]);
        expect(await advertiser.page.locator("article", { hasText: title }).textContent()).toContain(lang === "zh" ? "投放中" : "Active");
        for (const visitor of [advertiser, admin, reader]) await visitor.context.close();
      },
    );
  }
});
