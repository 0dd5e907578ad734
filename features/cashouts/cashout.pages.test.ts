import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { createTestApi, type TestApi } from "../../tests/support/api.ts";
import { createUser, createWriting, signedInVisitor } from "../../tests/support/factories.ts";
import { oneDatabaseKind } from "../../tests/support/database.ts";
import { grant } from "../../tests/support/money.ts";
import { users } from "../../server/db/schema/index.ts";
import { settleIncome } from "../settlement/service.ts";

/** The cashout as plain forms, in both languages: the arithmetic before confirming, the admins' queue, the sandbox's mark. */
describe.each(oneDatabaseKind)("cashout pages on %s", (kind) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi(kind, { pages: true });
  });
  afterAll(() => api.close());
  const db = () => api.database.db;
  const hidden = (html: string, name: string) => new RegExp(`name="${name}" value="([^"]+)"`).exec(html)?.[1] ?? "";

  it("shows the arithmetic, requests, lets an admin approve, and pays through the sandbox", async () => {
    const creatorUser = await createUser(db());
    const creator = await signedInVisitor(api.app, db(), creatorUser);
    const writing = await createWriting(db(), creatorUser, { title: "提现页面", tipEnabled: true });
    const readerUser = await createUser(db());
    const reader = await signedInVisitor(api.app, db(), readerUser);
    await grant(db(), readerUser.id, "sinecoin", 40_000);
    for (let tip = 0; tip < 4; tip += 1) {
      const tipped = await reader.request("POST", `/api/subjects/writing/${writing.id}/tips/`, {
        json: { amount: 10_000 },
        headers: { "idempotency-key": `cashout-page-${Date.now()}-${tip}` },
      });
      expect(tipped.statusCode, tipped.body).toBe(201);
    }
    await settleIncome(db(), new Date(Date.now() + 8 * 86_400_000));

    const empty = (await creator.get("/monetization/cashout")).body;
    expect(empty).toContain("你还没有收款账户");
    const saved = await creator.postForm("/wallet/accounts", {
      csrftoken: await creator.csrfToken(),
      intent: "payout",
      provider: "alipay",
      account: "13800138000",
      real_name: "张三丰",
    });
    expect(saved.statusCode, saved.body).toBe(303);

    // 30,000 sinecoin: fee 300, ¥2,970, tax (2,970 − 800) × 20% = ¥434, net ¥2,536.
    const preview = (await creator.get("/monetization/cashout?amount=30000")).body;
    expect(preview).toContain("代扣个人所得税（20%）");
    expect(preview).toContain("¥434.00");
    expect(preview).toContain("¥2536.00");
    expect(preview).toContain("劳务报酬所得按次预扣个人所得税");
    const english = (await creator.get("/en/monetization/cashout?amount=30000")).body;
    expect(english).toContain("Income tax withheld (20%)");
    expect(english).toContain("You receive");
    expect((await creator.get("/monetization/cashout?amount=50")).body).toContain("每次至少提现 100 圈币");

    const requested = await creator.postForm("/monetization/cashout", {
      csrftoken: await creator.csrfToken(),
      idempotency_key: hidden(preview, "idempotency_key"),
      intent: "request",
      amount: "30000",
    });
    expect(requested.statusCode, requested.body).toBe(303);
    const listed = (await creator.get("/monetization/cashout?notice=requested")).body;
    expect(listed).toContain("待审核");

    const adminUser = await createUser(db());
    await db().update(users).set({ siteRole: "admin" }).where(eq(users.id, adminUser.id));
    const admin = await signedInVisitor(api.app, db(), adminUser);
    expect((await creator.get("/admin/cashouts")).statusCode).toBe(403);
    const queue = (await admin.get("/en/admin/cashouts")).body;
    expect(queue).toContain("Waiting for review");
    const cashoutId = hidden(queue, "cashout_id");
    const approved = await admin.postForm("/en/admin/cashouts", {
      csrftoken: await admin.csrfToken(),
      intent: "approve",
      cashout_id: cashoutId,
      reason: "",
    });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.body).toContain("The cashout was approved");

    const marked = await creator.postForm("/en/monetization/cashout", {
      csrftoken: await creator.csrfToken(),
      intent: "sandbox",
      cashout_id: cashoutId,
      outcome: "paid",
    });
    expect(marked.statusCode, marked.body).toBe(303);
    const after = (await creator.get("/en/monetization/cashout")).body;
    expect(after).toContain("Paid");
    expect((await creator.get("/api/wallet/")).json()).toMatchObject({ sinecoin: 10_000, sinecoin_total_cashout: 30_000 });
  });
});
