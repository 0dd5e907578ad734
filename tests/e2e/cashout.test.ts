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
import { inTransaction } from "../../server/lib/transactions.ts";
import { postLedgerTransaction } from "../../features/ledger/service.ts";
import { settleIncome } from "../../features/settlement/service.ts";
import { savePayoutAccount } from "../../features/wallet/service.ts";
import { createSessionFor, createUser } from "../support/factories.ts";

/*
 * A creator cashes out in a real browser, on a server of its own: its store is prepared, before
 * the server opens it, with an admin and, per language, a creator whose tips are past the
 * settlement window and who has a payout account.
 */
let server: ChildProcess;
let baseURL: string;
let dataDir: string;
const tokens: Record<"admin" | "zh" | "en", string> = { admin: "", zh: "", en: "" };

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), "circles-e2e-cashout-"));
  const handle = await openEmbeddedDatabase(embeddedDataPath(dataDir));
  try {
    await handle.migrate();
    const db = handle.db;
    const admin = await createUser(db, { username: "cashout_admin" });
    await db.update(users).set({ siteRole: "admin" }).where(eq(users.id, admin.id));
    tokens.admin = await createSessionFor(db, admin, true);
    const reader = await createUser(db, { username: "cashout_reader" });
    for (const lang of ["zh", "en"] as const) {
      const creator = await createUser(db, { username: `cashout_creator_${lang}`, nickname: `cashout_creator_${lang}` });
      await inTransaction({ db }, (tx) =>
        postLedgerTransaction(tx, {
          idempotencyKey: `e2e-cashout-tip-${lang}`,
          kind: "tip",
          data: {
            tipId: 1,
            subjectType: "writing",
            subjectId: 1,
            authorId: creator.id,
            title: "Tips",
            path: "/",
            counterparty: reader.nickname,
          },
          entries: [
            { account: { userId: creator.id, currency: "sinecoin" }, amount: 500 },
            { account: { system: "test_issuer", currency: "sinecoin" }, amount: -500 },
          ],
        }),
      );
      await savePayoutAccount({ db }, creator.id, { provider: "alipay", account: "13800138000", realName: "张三丰" });
      tokens[lang] = await createSessionFor(db, creator, true);
    }
    await settleIncome(db, new Date(Date.now() + 8 * 86_400_000));
  } finally {
    await handle.close();
  }
  ({ server, baseURL } = await startServer(dataDir));
  await launchBrowser();
}, 300_000);

afterAll(async () => {
  await closeBrowser();
  server?.kill("SIGTERM");
  await new Promise((resolve) => server?.once("exit", resolve));
  rmSync(dataDir, { recursive: true, force: true });
});

async function visitorAs(who: keyof typeof tokens, locale: string) {
  const visitor = await newVisitor({ baseURL, locale });
  const { hostname } = new URL(baseURL);
  await visitor.context.addCookies([{ name: "sessionid", value: tokens[who], domain: hostname, path: "/", httpOnly: true }]);
  return visitor;
}

describe("cashing out", () => {
  for (const [lang, prefix, locale, text] of [
    ["zh", "", "zh-CN", { preview: "查看明细", confirm: "确认提现", waiting: "待审核", approve: "批准", mark: "标记成功", paid: "已到账" }],
    [
      "en",
      "/en",
      "en",
      {
        preview: "Show the arithmetic",
        confirm: "Confirm cash out",
        waiting: "Waiting for review",
        approve: "Approve",
        mark: "Mark paid",
        paid: "Paid",
      },
    ],
  ] as const) {
    it(`a creator sees the arithmetic, cashes out, an admin approves, the sandbox pays (${lang})`, async () => {
      const creator = await visitorAs(lang, locale);
      const { page } = creator;
      await page.goto(`${prefix}/monetization/cashout`);
      expect(await page.getByTestId("cashable").textContent()).toContain("500");
      await page.locator("#cashout-preview-form input[name=amount]").fill("400");
      await page.getByRole("button", { name: text.preview }).click();
      // 400 sinecoin: fee 4, ¥39.60 at ¥0.10, nothing withheld below ¥800.
      await expect.poll(() => page.getByTestId("cashout-net").textContent()).toBe("¥39.60");
      expect(await page.getByTestId("cashout-tax").textContent()).toBe("− ¥0.00");
      await page.getByRole("button", { name: text.confirm }).click();
      await expect.poll(() => page.getByTestId("cashout-list").textContent()).toContain(text.waiting);
      expect(await page.getByTestId("cashable").textContent()).toContain("100");

      const admin = await visitorAs("admin", locale);
      await admin.page.goto(`${prefix}/admin/cashouts`);
      const row = admin.page.getByTestId("admin-cashouts").locator("li", { hasText: `cashout_creator_${lang}` });
      await row.getByRole("button", { name: text.approve }).click();
      await expect.poll(() => admin.page.locator("p[role=status]").textContent()).toBeTruthy();
      await admin.context.close();

      await page.goto(`${prefix}/monetization/cashout`);
      await page.getByRole("button", { name: text.mark }).click();
      await expect.poll(() => page.getByTestId("cashout-list").textContent()).toContain(text.paid);
      await creator.context.close();
    });
  }
});
