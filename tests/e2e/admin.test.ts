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
import { createSessionFor, createUser } from "../support/factories.ts";

/*
 * The admin area in a real browser, on a server of its own: its store is prepared with an admin
 * and a moderator before the server opens it (the shared run's store belongs to its server).
 */
let server: ChildProcess;
let baseURL: string;
let dataDir: string;
const tokens: Record<"admin" | "moderator", string> = { admin: "", moderator: "" };
const targets: Record<"zh" | "en", { id: number; username: string }> = { zh: { id: 0, username: "" }, en: { id: 0, username: "" } };

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), "circles-e2e-admin-"));
  const handle = await openEmbeddedDatabase(embeddedDataPath(dataDir));
  try {
    await handle.migrate();
    for (const role of ["admin", "moderator"] as const) {
      const user = await createUser(handle.db, { username: `staff_${role}` });
      await handle.db.update(users).set({ siteRole: role }).where(eq(users.id, user.id));
      tokens[role] = await createSessionFor(handle.db, user, true);
    }
    for (const lang of ["zh", "en"] as const) {
      const user = await createUser(handle.db, { username: `troll_${lang}` });
      targets[lang] = { id: user.id, username: user.username };
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

  it("a moderator sees no ledger or jobs in the menu and cannot reach the ledger", async () => {
    const { page, context } = await staffVisitor("moderator", "en");
    await page.goto("/en/admin");
    const menu = page.locator("nav.admin-menu");
    expect(await menu.textContent()).toContain("Users");
    expect(await menu.textContent()).not.toContain("Ledger");
    expect(await menu.textContent()).not.toContain("Jobs");
    const answer = await page.goto("/en/admin/ledger");
    expect(answer?.status()).toBe(403);
    const zh = await page.goto("/admin/ledger");
    expect(zh?.status()).toBe(403);
    await context.close();
  });
});
