import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { closeBrowser, launchBrowser, newVisitor } from "./browser.ts";
import { startServer } from "./global-setup.ts";
import { embeddedDataPath, openEmbeddedDatabase } from "../../server/db/client.ts";
import { users } from "../../server/db/schema/index.ts";
import { seed } from "../../server/db/seed.ts";
import { createSessionFor, createUser, createWriting } from "../support/factories.ts";

/*
 * The admin area in a real browser, on a server of its own: its store is prepared with an admin
 * and a moderator before the server opens it (the shared run's store belongs to its server).
 */
let server: ChildProcess;
let baseURL: string;
let dataDir: string;
const tokens: Record<"admin" | "moderator", string> = { admin: "", moderator: "" };
const targets: Record<"zh" | "en", { id: number; username: string }> = { zh: { id: 0, username: "" }, en: { id: 0, username: "" } };
const spam: Record<"zh" | "en", { id: number; title: string }> = { zh: { id: 0, title: "" }, en: { id: 0, title: "" } };

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), "circles-e2e-admin-"));
  const handle = await openEmbeddedDatabase(embeddedDataPath(dataDir));
  try {
    await handle.migrate();
    await seed(handle); // the circles a writing needs (the server seeds again, idempotently)
    for (const role of ["admin", "moderator"] as const) {
      const user = await createUser(handle.db, { username: `staff_${role}` });
      await handle.db.update(users).set({ siteRole: role }).where(eq(users.id, user.id));
      tokens[role] = await createSessionFor(handle.db, user, true);
    }
    for (const lang of ["zh", "en"] as const) {
      const user = await createUser(handle.db, { username: `troll_${lang}` });
      targets[lang] = { id: user.id, username: user.username };
      const writing = await createWriting(handle.db, user, { title: `Cheap followers ${lang} qx9` });
      spam[lang] = { id: writing.id, title: writing.title };
    }
  } finally {
    await handle.close();
  }
  ({ server, baseURL } = await startServer(dataDir));
  await launchBrowser();
}, 120_000);

afterAll(async () => {
  await closeBrowser();
  server?.kill("SIGTERM");
  await new Promise((resolve) => server?.once("exit", resolve));
  rmSync(dataDir, { recursive: true, force: true });
});

async function staffVisitor(role: "admin" | "moderator", locale: string) {
  const visitor = await newVisitor({ baseURL, locale });
  const { hostname } = new URL(baseURL);
  await visitor.context.addCookies([{ name: "sessionid", value: tokens[role], domain: hostname, path: "/", httpOnly: true }]);
  return visitor;
}

describe("the admin area", () => {
  for (const [lang, prefix, locale, saved, days] of [
    ["zh", "", "zh-CN", "已保存。", "7 天"],
    ["en", "/en", "en", "Saved.", "for 7 days"],
  ] as const) {
    it(`an admin finds a user, suspends them with a reason and sees it in the audit log (${lang})`, async () => {
      const { page, context } = await staffVisitor("admin", locale);
      const target = targets[lang];
      await page.goto(`${prefix}/admin/users`);
      await page.locator(".admin-area input[name=q]").fill(target.username);
      await page.locator(".admin-area form[role=search] button").click();
      await page.getByRole("link", { name: target.username, exact: true }).click();
      await expect.poll(() => page.url()).toContain(`${prefix}/admin/users/${target.id}`);
      const suspension = page.locator("form", { has: page.locator("input[name=intent][value=suspension]") });
      await suspension.locator("select[name=duration]").selectOption({ label: days });
      await suspension.locator("input[name=reason]").fill(`spam wave ${lang}`);
      await suspension.locator("button").click();
      await expect.poll(() => page.locator(".admin-area p.notice").textContent()).toBe(saved);
      await expect.poll(() => page.getByTestId("suspension").textContent()).toContain(`spam wave ${lang}`);

      await page.goto(`${prefix}/admin/audit?target=user:${target.id}`);
      const row = page.locator("tbody tr").first();
      expect(await row.textContent()).toContain(`spam wave ${lang}`);
      expect(await row.textContent()).toContain("staff_admin");
      expect(await row.textContent()).toContain("user.update");
      await context.close();
    });
  }

  for (const [lang, prefix, locale, hidden, hiddenState] of [
    ["zh", "", "zh-CN", "已隐藏，已将理由告知作者。", "已隐藏"],
    ["en", "/en", "en", "Hidden. The author has been told why.", "Hidden"],
  ] as const) {
    it(`a moderator hides content with a reason, sees no ledger or jobs in the menu and cannot reach the ledger (${lang})`, async () => {
      const { page, context } = await staffVisitor("moderator", locale);
      await page.goto(`${prefix}/admin/content`);
      await page.locator(".admin-area input[name=q]").fill(spam[lang].title);
      await page.locator(".admin-area form[role=search] button").click();
      const row = page.getByTestId(`content-writing-${spam[lang].id}`);
      await row.locator("input[name=reason]").fill(`advertising ${lang}`);
      await row.locator("button[name=intent][value=hide]").click();
      await expect.poll(() => page.locator(".admin-area p.notice").textContent()).toBe(hidden);
      await expect
        .poll(() => page.getByTestId(`content-writing-${spam[lang].id}`).locator("td").nth(3).textContent())
        .toContain(hiddenState);

      const menu = page.locator("nav.admin-menu");
      expect(await menu.textContent()).not.toContain(lang === "en" ? "Ledger" : "账本");
      expect(await menu.textContent()).not.toContain(lang === "en" ? "Jobs" : "后台任务");
      const answer = await page.goto(`${prefix}/admin/ledger`);
      expect(answer?.status()).toBe(403);
      await context.close();
    });
  }
});
