import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { createTestApi, type TestApi, type Visitor } from "../../tests/support/api.ts";
import { createSignedInUser, createWriting } from "../../tests/support/factories.ts";
import { databaseKinds } from "../../tests/support/database.ts";
import { grant } from "../../tests/support/money.ts";
import { auditLog, cashouts, notifications, users } from "../../server/db/schema/index.ts";
import { checkLedger, ledgerIsConsistent } from "../ledger/check.ts";
import { settleIncome } from "../settlement/service.ts";
import { replacePayoutProvider } from "./providers.ts";
import type { PayoutProvider } from "./provider.ts";
import { sendCashout } from "./service.ts";
import { quoteCashout, readCashoutSettings } from "./settings.ts";

let keys = 0;
const key = () => `cashout-test-${Date.now()}-${(keys += 1)}`;

describe("the cashout arithmetic", () => {
  const settings = { ...readCashoutSettings({}), feePermille: 10, fenPerSinecoin: 10 };
  it("withholds labour remuneration tax: ¥800 off up to ¥4,000, 20% off above, then the bracket", () => {
    // 1,000 sinecoin: fee 10, ¥99 gross, below ¥800: no tax.
    expect(quoteCashout(1000, settings)).toMatchObject({ fee: 10, grossFen: 9_900, taxWithheldFen: 0, netFen: 9_900 });
    // 30,000 sinecoin: fee 300, ¥2,970: (2,970 − 800) × 20% = ¥434.
    expect(quoteCashout(30_000, settings)).toMatchObject({
      grossFen: 297_000,
      deductionFen: 80_000,
      taxWithheldFen: 43_400,
      netFen: 253_600,
    });
    // ¥9,900: 9,900 × 80% = 7,920 taxable, 20% = ¥1,584.
    expect(quoteCashout(100_000, settings)).toMatchObject({ grossFen: 990_000, taxableFen: 792_000, taxWithheldFen: 158_400 });
    // ¥29,700: taxable 23,760, 30% − 2,000 = ¥5,128.
    expect(quoteCashout(300_000, settings)).toMatchObject({ taxableFen: 2_376_000, taxRate: 30, taxWithheldFen: 512_800 });
    // ¥99,000: taxable 79,200, 40% − 7,000 = ¥24,680.
    expect(quoteCashout(1_000_000, settings)).toMatchObject({ taxableFen: 7_920_000, taxRate: 40, taxWithheldFen: 2_468_000 });
  });
});

describe.each(databaseKinds)("cashouts on %s", (kind) => {
  let api: TestApi;
  let admin: Visitor;
  beforeAll(async () => {
    api = await createTestApi(kind, { jobs: true });
    const a = await createSignedInUser(api.app, db());
    await db().update(users).set({ siteRole: "admin" }).where(eq(users.id, a.user.id));
    admin = a.visitor;
  });
  afterAll(() => api.close());
  afterEach(() => replacePayoutProvider("sandbox", undefined));
  const db = () => api.database.db;

  /** A creator with `amount` of settled profit (a reader's tip past the settlement window) and a payout account. */
  async function creatorWithProfit(amount: number, payout = true) {
    const creator = await createSignedInUser(api.app, db());
    const writing = await createWriting(db(), creator.user, { title: "提现测试", tipEnabled: true });
    const reader = await createSignedInUser(api.app, db());
    await grant(db(), reader.user.id, "sinecoin", amount);
    const tipped = await reader.visitor.request("POST", `/api/subjects/writing/${writing.id}/tips/`, {
      json: { amount },
      headers: { "idempotency-key": key() },
    });
    expect(tipped.statusCode, tipped.body).toBe(201);
    await settleIncome(db(), new Date(Date.now() + 8 * 24 * 60 * 60 * 1000));
    if (payout) {
      const saved = await creator.visitor.request("PUT", "/api/wallet/payout_account/", {
        json: { account: "13800138000", real_name: "张三丰" },
      });
      expect(saved.statusCode, saved.body).toBe(200);
    }
    return creator;
  }
  const wallet = async (visitor: Visitor) => (await visitor.get("/api/wallet/")).json() as Record<string, number>;
  const request = (visitor: Visitor, amount: number, idempotencyKey = key()) =>
    visitor.request("POST", "/api/cashouts/", { json: { amount }, headers: { "idempotency-key": idempotencyKey } });
  const consistent = async () => expect(ledgerIsConsistent(await checkLedger(db()))).toBe(true);

  it("quotes, refuses below the minimum and without a payout account, and holds the coins while requested", async () => {
    const creator = await creatorWithProfit(500, false);
    const quoted = await creator.visitor.request("POST", "/api/cashouts/quote/", { json: { amount: 200 } });
    expect(quoted.json()).toMatchObject({ amount: 200, fee: 2, gross_fen: 1980, tax_withheld: 0, net_fen: 1980 });
    expect((await request(creator.visitor, 50)).json()).toMatchObject({ code: "below_minimum" });
    expect((await request(creator.visitor, 200)).json()).toMatchObject({ code: "payout_account_required" });
    await creator.visitor.request("PUT", "/api/wallet/payout_account/", { json: { account: "13800138000", real_name: "张三丰" } });
    expect((await request(creator.visitor, 501)).json()).toMatchObject({ code: "insufficient_cashoutable" });
    const idempotencyKey = key();
    const created = await request(creator.visitor, 200, idempotencyKey);
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({ amount: 200, fee: 2, tax_withheld: 0, net_fen: 1980, status: "requested" });
    // A retry with the same key answers the same cashout and takes nothing twice.
    expect((await request(creator.visitor, 200, idempotencyKey)).json()).toMatchObject({ id: created.json().id });
    expect(await wallet(creator.visitor)).toMatchObject({ sinecoin: 300, cashoutable_sinecoin_profit: 300, sinecoin_total_cashout: 0 });
    const list = (await creator.visitor.get("/api/cashouts/")).json();
    expect(list.results).toHaveLength(1);
    expect(list.results[0].payee).toEqual({ provider: "alipay", account: "138****8000", real_name: "**丰" });
    await consistent();
  });

  it("cancels while requested (coins available again) and not after", async () => {
    const creator = await creatorWithProfit(300);
    const { id } = (await request(creator.visitor, 300)).json();
    expect(await wallet(creator.visitor)).toMatchObject({ sinecoin: 0, cashoutable_sinecoin_profit: 0 });
    const other = await createSignedInUser(api.app, db());
    expect((await other.visitor.request("DELETE", `/api/cashouts/${id}/`)).statusCode).toBe(404);
    const cancelled = await creator.visitor.request("DELETE", `/api/cashouts/${id}/`);
    expect(cancelled.json()).toMatchObject({ status: "cancelled" });
    expect((await creator.visitor.request("DELETE", `/api/cashouts/${id}/`)).json()).toMatchObject({ code: "cashout_not_requested" });
    expect(await wallet(creator.visitor)).toMatchObject({ sinecoin: 300, cashoutable_sinecoin_profit: 300 });
    await consistent();
  });

  it("rejects with a reason the owner sees (site admins only, audited), and pays an approved one through the sandbox", async () => {
    const creator = await creatorWithProfit(400);
    const first = (await request(creator.visitor, 200)).json();
    expect((await creator.visitor.request("POST", `/api/admin/cashouts/${first.id}/approve/`, { json: {} })).statusCode).toBe(403);
    expect((await admin.request("POST", `/api/admin/cashouts/${first.id}/reject/`, { json: {} })).json()).toMatchObject({
      code: "reason_required",
    });
    const rejected = await admin.request("POST", `/api/admin/cashouts/${first.id}/reject/`, { json: { reason: "实名不一致" } });
    expect(rejected.json()).toMatchObject({ status: "rejected", reason: "实名不一致" });
    expect(await wallet(creator.visitor)).toMatchObject({ sinecoin: 400, cashoutable_sinecoin_profit: 400 });

    const second = (await request(creator.visitor, 400)).json();
    expect((await admin.request("POST", `/api/admin/cashouts/${second.id}/approve/`, { json: { reason: "ok" } })).json()).toMatchObject({
      status: "approved",
    });
    expect((await creator.visitor.request("DELETE", `/api/cashouts/${second.id}/`)).json()).toMatchObject({
      code: "cashout_not_requested",
    });
    // The job sends it; the sandbox waits for its tester.
    await api.jobs!.runJobNow("send-payouts", {});
    expect((await db().select().from(cashouts).where(eq(cashouts.id, second.id)))[0]).toMatchObject({ status: "approved", attempts: 1 });
    const paid = await creator.visitor.request("POST", `/api/cashouts/${second.id}/sandbox/`, { json: { outcome: "paid" } });
    expect(paid.json()).toMatchObject({ status: "paid" });
    // A second mark, or another run of the job, changes nothing.
    expect((await creator.visitor.request("POST", `/api/cashouts/${second.id}/sandbox/`, { json: { outcome: "failed" } })).statusCode).toBe(
      409,
    );
    await api.jobs!.runJobNow("send-payouts", {});
    expect(await wallet(creator.visitor)).toMatchObject({ sinecoin: 0, cashoutable_sinecoin_profit: 0, sinecoin_total_cashout: 400 });
    const audits = await db()
      .select()
      .from(auditLog)
      .where(eq(auditLog.target, `cashout:${first.id}`));
    expect(audits).toMatchObject([{ action: "cashout.reject", reason: "实名不一致" }]);
    const told = await db().select({ verb: notifications.verb }).from(notifications).where(eq(notifications.recipientId, creator.user.id));
    expect(
      told
        .map((row) => row.verb)
        .filter((verb) => verb.startsWith("cashout."))
        .sort(),
    ).toEqual(["cashout.approved", "cashout.paid", "cashout.rejected", "cashout.requested", "cashout.requested"].sort());
    await consistent();
  });

  it("returns the coins when the provider fails, with its reason", async () => {
    const creator = await creatorWithProfit(300);
    const { id } = (await request(creator.visitor, 300)).json();
    await admin.request("POST", `/api/admin/cashouts/${id}/approve/`, { json: {} });
    const failed = await creator.visitor.request("POST", `/api/cashouts/${id}/sandbox/`, { json: { outcome: "failed" } });
    expect(failed.json()).toMatchObject({ status: "failed", reason: "sandbox_declined" });
    expect(await wallet(creator.visitor)).toMatchObject({ sinecoin: 300, cashoutable_sinecoin_profit: 300, sinecoin_total_cashout: 0 });
    await consistent();
  });

  it("queries an unknown outcome before any retry and never sends twice", async () => {
    const sent: string[] = [];
    let books: "none" | "paid" = "none";
    let timeOut = true;
    const flaky: PayoutProvider = {
      name: "sandbox",
      async transfer(transfer) {
        sent.push(transfer.id);
        books = "paid";
        if (timeOut) throw new Error("timed out after sending");
        return { state: "paid", ref: "ref-1" };
      },
      async query() {
        return books === "paid" ? { state: "paid", ref: "ref-1" } : { state: "unknown" };
      },
    };
    replacePayoutProvider("sandbox", flaky);
    const creator = await creatorWithProfit(300);
    const { id } = (await request(creator.visitor, 300)).json();
    await admin.request("POST", `/api/admin/cashouts/${id}/approve/`, { json: {} });
    await expect(sendCashout(db(), id)).rejects.toThrow("timed out");
    expect((await db().select().from(cashouts).where(eq(cashouts.id, id)))[0]).toMatchObject({ status: "approved" });
    timeOut = false;
    await api.jobs!.runJobNow("send-payouts", {});
    expect(sent).toEqual([id]);
    expect((await db().select().from(cashouts).where(eq(cashouts.id, id)))[0]).toMatchObject({ status: "paid", providerRef: "ref-1" });
    expect(await wallet(creator.visitor)).toMatchObject({ sinecoin: 0, sinecoin_total_cashout: 300 });
    await consistent();
  });

  it("twenty concurrent cashouts of the whole balance: exactly one succeeds", async () => {
    const creator = await creatorWithProfit(500);
    const answers = await Promise.all(Array.from({ length: 20 }, () => request(creator.visitor, 500)));
    const statuses = answers.map((answer) => answer.statusCode).sort();
    expect(statuses.filter((status) => status === 201)).toHaveLength(1);
    const refusals = answers.filter((answer) => answer.statusCode !== 201).map((answer) => `${answer.statusCode} ${answer.json().code}`);
    expect(new Set(refusals)).toEqual(new Set(["409 insufficient_cashoutable"]));
    expect(await wallet(creator.visitor)).toMatchObject({ sinecoin: 0, cashoutable_sinecoin_profit: 0 });
    await consistent();
  });
});
