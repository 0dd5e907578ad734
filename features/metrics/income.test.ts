import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq, sql } from "drizzle-orm";
import { createTestApi, type TestApi, type Visitor } from "../../tests/support/api.ts";
import { createSignedInUser, createWriting } from "../../tests/support/factories.ts";
import { databaseKinds } from "../../tests/support/database.ts";
import { grant } from "../../tests/support/money.ts";
import { dailyStats } from "../../server/db/schema/index.ts";
import { shanghaiDay } from "../../common/locale.ts";
import type { Viewer } from "../accounts/viewer.ts";
import { ledgerKindNames, ledgerKinds } from "../ledger/kinds.ts";
import { profitAnalysis } from "../analysis/profit.ts";
import { rollupDifferences } from "./rollups.ts";

/**
 * Income in the daily rollups (docs/features/metrics.md, `income_*`) follows the typed ledger
 * kinds: the same figures the ledger gives (`profitAnalysis`) for every source, only the income
 * side of a transaction, and never a red packet's share.
 */
describe.each(databaseKinds)("rollup income on %s", (kind) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi(kind);
  });
  afterAll(() => api.close());
  const db = () => api.database.db;
  let keys = 0;
  const key = () => ({ "idempotency-key": `rollup-income-${kind}-${(keys += 1)}` });
  const post = (visitor: Visitor, path: string, json: unknown = {}) => visitor.request("POST", path, { json, headers: key() });

  it("declares each kind's source and reversal in the database as kinds.ts does", async () => {
    const result = await db().execute(
      sql`select k as kind, ledger_income_source(k) as source, ledger_income_reverses(k) as reverses from unnest(${`{${ledgerKindNames.join(",")}}`}::text[]) k`,
    );
    const rows = (result as unknown as { rows: { kind: string; source: string | null; reverses: boolean }[] }).rows;
    expect(rows).toEqual(
      ledgerKindNames.map((name) => ({
        kind: name,
        source: ledgerKinds[name].income?.source ?? null,
        reverses: ledgerKinds[name].income?.reverses === true,
      })),
    );
  });

  it("gives a creator's income per source as the ledger does, with tips, unlocks, a refund and red packets", async () => {
    const creator = await createSignedInUser(api.app, db());
    const fan = await createSignedInUser(api.app, db());
    await grant(db(), fan.user.id, "sinecoin", 100);
    await grant(db(), creator.user.id, "sinecoin", 50);
    const tipped = await createWriting(db(), creator.user, { tipEnabled: true });
    const fansWriting = await createWriting(db(), fan.user, { tipEnabled: true });
    const published = await creator.visitor.post("/api/circles/1/writings/", {
      title: "付费的收入",
      content: "开头。\n\n<!-- paywall -->\n\n付费的部分\n",
      pay_to_view: { price: 6 },
    });
    expect(published.statusCode, published.body).toBe(201);
    const paid = (published.json() as { id: number }).id;

    // The fan tips the creator 7 and the creator tips the fan 3: each is income only to the one tipped.
    expect((await post(fan.visitor, `/api/subjects/writing/${tipped.id}/tips/`, { amount: 7 })).statusCode).toBe(201);
    expect((await post(creator.visitor, `/api/subjects/writing/${fansWriting.id}/tips/`, { amount: 3 })).statusCode).toBe(201);
    // Unlocked (6), refunded on the creator's approval (−6), unlocked again (6).
    expect((await post(fan.visitor, `/api/writings/${paid}/unlock/`)).statusCode).toBe(200);
    const asked = await post(fan.visitor, `/api/writings/${paid}/unlock/refund_requests/`, { reason: "不是我想要的内容" });
    expect(asked.statusCode, asked.body).toBe(201);
    const approved = await post(creator.visitor, `/api/unlock_refund_requests/${(asked.json() as { id: number }).id}/approve/`);
    expect(approved.statusCode, approved.body).toBe(200);
    expect((await post(fan.visitor, `/api/writings/${paid}/unlock/`)).statusCode).toBe(200);
    // A red packet the creator funds and the fan claims from: nobody's income.
    const funded = await post(creator.visitor, `/api/writings/${tipped.id}/red_packets/`, {
      total: 10,
      shares: 2,
      split: "equal",
      expires_in_hours: 24,
    });
    expect(funded.statusCode, funded.body).toBe(201);
    expect((await post(fan.visitor, `/api/red_packets/${(funded.json() as { id: number }).id}/claim/`)).json()).toEqual({ amount: 5 });

    const today = shanghaiDay();
    const range = { from: today, to: today };
    const incomeRow = async (userId: number) => {
      const [row] = await db()
        .select()
        .from(dailyStats)
        .where(and(eq(dailyStats.subjectType, "user"), eq(dailyStats.subjectId, userId), eq(dailyStats.day, today)));
      return {
        tips: row?.incomeTips ?? 0,
        unlocks: row?.incomeUnlocks ?? 0,
        ads: row?.incomeAds ?? 0,
        missions: row?.incomeMissions ?? 0,
        rewards: row?.incomeRewards ?? 0,
      };
    };
    const ledgerIncome = async (userId: number) => {
      const { totals } = await profitAnalysis(db(), { id: userId } as Viewer, range);
      return { tips: totals.tips, unlocks: totals.unlocks, ads: totals.ads, missions: totals.missions, rewards: totals.rewards };
    };
    expect(await incomeRow(creator.user.id)).toEqual({ tips: 7, unlocks: 6, ads: 0, missions: 0, rewards: 0 });
    expect(await incomeRow(creator.user.id)).toEqual(await ledgerIncome(creator.user.id));
    // The fan's own spending (a tip, two unlocks), their refund and their red packet share are not income.
    expect(await incomeRow(fan.user.id)).toEqual({ tips: 3, unlocks: 0, ads: 0, missions: 0, rewards: 0 });
    expect(await incomeRow(fan.user.id)).toEqual(await ledgerIncome(fan.user.id));
    expect(await rollupDifferences(db(), range)).toEqual([]);
  });
});
