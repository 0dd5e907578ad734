import { readFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { closeBrowser, launchBrowser, newVisitor } from "./browser.ts";
import { startServer } from "./global-setup.ts";
import { embeddedDataPath, openEmbeddedDatabase } from "../../server/db/client.ts";
import { inTransaction } from "../../server/lib/transactions.ts";
import { postLedgerTransaction } from "../../features/ledger/service.ts";
import { settleIncome } from "../../features/settlement/service.ts";
import { savePayoutAccount } from "../../features/wallet/service.ts";
import { seedCircleTree } from "../../features/circles/seed.ts";
import { createSessionFor, createUser, createWriting } from "../support/factories.ts";

/*
 * Issue 36 "Creators earn": a creator goes through their income pages in a real browser, in both
 * languages, on a server of its own whose store is prepared before it opens: per language a
 * creator in the programme with a writing a reader tipped 600 sinecoin (settled) and a payout
 * account. The analysis charts are server-rendered SVG (seen with JavaScript off), both CSV
 * exports download with a BOM, and a cashout is requested through the page.
 */
let server: ChildProcess;
let baseURL: string;
let dataDir: string;
const creators: Record<"zh" | "en", { token: string; title: string }> = { zh: { token: "", title: "" }, en: { token: "", title: "" } };

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), "circles-e2e-income-"));
  const handle = await openEmbeddedDatabase(embeddedDataPath(dataDir));
  try {
    await handle.migrate();
    const db = handle.db;
    // The circle tree first: the creators' writings are in the global village (circle 1).
    await seedCircleTree(db);
    const reader = await createUser(db, { username: "income_reader", nickname: "income_reader" });
    for (const lang of ["zh", "en"] as const) {
      const creator = await createUser(db, {
        username: `income_creator_${lang}`,
        nickname: `income_creator_${lang}`,
        userType: "Official users",
      });
      const title = lang === "zh" ? "收益页面之旅" : "Income pages journey";
      const writing = await createWriting(db, creator, { title, tipEnabled: true });
      await inTransaction({ db }, (tx) =>
        postLedgerTransaction(tx, {
          idempotencyKey: `e2e-income-tip-${lang}`,
          kind: "tip",
          data: {
            tipId: 1,
            subjectType: "writing",
            subjectId: writing.id,
            authorId: creator.id,
            title,
            path: `/circles/1/writing/${writing.id}`,
            counterparty: reader.nickname,
          },
          entries: [
            { account: { userId: creator.id, currency: "sinecoin" }, amount: 600 },
            { account: { system: "test_issuer", currency: "sinecoin" }, amount: -600 },
          ],
        }),
      );
      await savePayoutAccount({ db }, creator.id, { provider: "alipay", account: "13800138000", realName: "张三丰" });
      creators[lang] = { token: await createSessionFor(db, creator, true), title };
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

async function creatorVisitor(lang: "zh" | "en", javaScriptEnabled = true) {
  const visitor = await newVisitor({ baseURL, locale: lang === "en" ? "en" : "zh-CN", javaScriptEnabled, acceptDownloads: true });
  const { hostname } = new URL(baseURL);
  await visitor.context.addCookies([{ name: "sessionid", value: creators[lang].token, domain: hostname, path: "/", httpOnly: true }]);
  return visitor;
}

async function downloaded(download: Promise<{ path(): Promise<string | null> }>): Promise<Buffer> {
  return readFile((await (await download).path())!);
}

describe("the creator's income pages", () => {
  for (const [lang, prefix, text] of [
    ["zh", "", { export: "导出 CSV", statementCsv: "下载 CSV", tips: "赞赏", preview: "查看明细", confirm: "确认提现", waiting: "待审核" }],
    [
      "en",
      "/en",
      {
        export: "Export CSV",
        statementCsv: "Download CSV",
        tips: "Tips",
        preview: "Show the arithmetic",
        confirm: "Confirm cash out",
        waiting: "Waiting for review",
      },
    ],
  ] as const) {
    it(`shows the charts without JavaScript, exports both CSVs and requests a cashout (${lang})`, async () => {
      const title = creators[lang].title;
      // Without JavaScript: the charts are SVG made on the server, the figures and tables are there.
      const plain = await creatorVisitor(lang, false);
      await plain.page.goto(`${prefix}/creator/analysis/profit?days=7`);
      expect(await plain.page.locator("figure.analysis-chart svg").count()).toBe(1);
      expect(await plain.page.getByTestId("analysis-totals").locator('[data-key="tips"] dd').textContent()).toBe("600");
      expect(await plain.page.getByTestId("analysis-items").locator("tbody tr", { hasText: title }).count()).toBe(1);
      await plain.page.goto(`${prefix}/creator/analysis/content?days=30`);
      expect(await plain.page.locator("figure.analysis-chart svg").count()).toBe(1);
      await plain.page.goto(`${prefix}/monetization/home`);
      expect(await plain.page.getByTestId("monetization-figures").textContent()).toContain("600");
      await plain.page.goto(`${prefix}/monetization/reward`);
      expect(await plain.page.getByTestId("monetization-income").textContent()).toContain("income_reader");
      await plain.context.close();

      const creator = await creatorVisitor(lang);
      const { page } = creator;
      await page.goto(`${prefix}/creator/analysis/profit?days=7`);
      // One chart shown: the server's SVG, or the same chart drawn again once its code has loaded.
      expect(await page.locator("figure.analysis-chart svg:visible").count()).toBe(1);
      const profitCsv = await downloaded(
        Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: text.export }).click()]).then(([download]) => download),
      );
      expect([...profitCsv.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      expect(profitCsv.toString("utf8")).toContain(title);
      expect(profitCsv.toString("utf8")).toContain("600");

      await page.goto(`${prefix}/monetization/result`);
      const statement = page.getByTestId("monetization-statement").first();
      expect(await statement.textContent()).toContain("600");
      const statementCsv = await downloaded(
        Promise.all([page.waitForEvent("download"), statement.getByRole("link", { name: text.statementCsv }).click()]).then(
          ([download]) => download,
        ),
      );
      expect([...statementCsv.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      expect(statementCsv.toString("utf8")).toContain(`${text.tips},600`);

      await page.goto(`${prefix}/monetization/cashout`);
      expect(await page.getByTestId("cashable").textContent()).toContain("600");
      await page.locator("#cashout-preview-form input[name=amount]").fill("500");
      await page.getByRole("button", { name: text.preview }).click();
      // 500 sinecoin: fee 5, ¥49.50 at ¥0.10, nothing withheld below ¥800.
      await expect.poll(() => page.getByTestId("cashout-net").textContent()).toBe("¥49.50");
      await page.getByRole("button", { name: text.confirm }).click();
      await expect.poll(() => page.getByTestId("cashout-list").textContent()).toContain(text.waiting);
      expect(await page.getByTestId("cashable").textContent()).toContain("100");
      await creator.context.close();
    });
  }
});
