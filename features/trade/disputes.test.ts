import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { createTestApi, type TestApi, type Visitor } from "../../tests/support/api.ts";
import { createSignedInUser } from "../../tests/support/factories.ts";
import { databaseKinds } from "../../tests/support/database.ts";
import { grant } from "../../tests/support/money.ts";
import { auditLog, tradeMissions, tradeProgress } from "../../server/db/schema/index.ts";
import { checkLedger, ledgerIsConsistent } from "../ledger/check.ts";

describe.each(databaseKinds)("the trade dispute queue on %s", (kind) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi(kind);
  });
  afterAll(() => api.close());
  const db = () => api.database.db;
  let keys = 0;
  const tomorrow = new Date(Date.now() + 86_400_000).toISOString();
  const sinecoin = async (visitor: Visitor) => ((await visitor.get("/api/wallet/")).json() as { sinecoin: number }).sinecoin;
  const step = (visitor: Visitor, progressId: number, action: string, json: unknown = {}) =>
    visitor.request("POST", `/api/trade/progress/${progressId}/${action}/`, { json });
  const decide = (visitor: Visitor, progressId: number, json: unknown) =>
    visitor.request("POST", `/api/admin/trade/disputes/${progressId}/`, { json });
  const consistent = async () => {
    const report = await checkLedger(db());
    expect(report.mismatchedUsers).toEqual([]);
    expect(ledgerIsConsistent(report)).toBe(true);
  };

  /** A 1-slot task of 30 whose only submission was rejected and disputed. */
  async function disputed(posterFunds = 30) {
    const poster = await createSignedInUser(api.app, db());
    await grant(db(), poster.user.id, "sinecoin", posterFunds);
    const posted = await poster.visitor.request("POST", "/api/trade/missions/", {
      json: { circle_id: 1, title: "Review a draft", description: "Two pages.", reward: 30, slots: 1, deadline: tomorrow },
      headers: { "idempotency-key": `dispute-${Date.now()}-${(keys += 1)}` },
    });
    const { id } = posted.json() as { id: number };
    const worker = await createSignedInUser(api.app, db());
    const { progress_id: progressId } = (
      await worker.visitor.request("POST", `/api/trade/missions/${id}/accept/`, { json: {} })
    ).json() as {
      progress_id: number;
    };
    expect((await step(worker.visitor, progressId, "submit", { content: "Reviewed, notes inline." })).statusCode).toBe(200);
    expect((await step(poster.visitor, progressId, "reject", { reason: "Not what I asked." })).statusCode).toBe(200);
    expect((await step(worker.visitor, progressId, "dispute")).statusCode).toBe(200);
    return { poster, worker, id, progressId };
  }

  it("lets moderators overturn a rejection with a reason, paying the worker from the hold once, audited", async () => {
    const { poster, worker, id, progressId } = await disputed();
    const moderator = await createSignedInUser(api.app, db(), { siteRole: "moderator" });
    expect((await worker.visitor.get("/api/admin/trade/disputes/")).statusCode).toBe(403);
    expect((await decide(poster.visitor, progressId, { decision: "overturn", reason: "mine" })).statusCode).toBe(403);
    const queue = (await moderator.visitor.get("/api/admin/trade/disputes/")).json() as { results: { id: number; reason: string }[] };
    expect(queue.results.find((row) => row.id === progressId)).toMatchObject({ reason: "Not what I asked." });

    expect((await decide(moderator.visitor, progressId, { decision: "overturn" })).json()).toMatchObject({ code: "reason_required" });
    const before = await sinecoin(worker.visitor);
    const answers = await Promise.all(
      Array.from({ length: 3 }, () =>
        decide(moderator.visitor, progressId, { decision: "overturn", reason: "The review was done as asked." }),
      ),
    );
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409, 409]);
    expect(await sinecoin(worker.visitor)).toBe(before + 30);
    const [task] = await db().select().from(tradeMissions).where(eq(tradeMissions.id, id));
    expect(task!.openSlots).toBe(0);
    const [record] = await db().select().from(tradeProgress).where(eq(tradeProgress.id, progressId));
    expect(record).toMatchObject({ status: "approved", disputeDecision: "overturned" });
    const audits = await db()
      .select()
      .from(auditLog)
      .where(eq(auditLog.target, `trade_progress:${progressId}`));
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({ action: "trade.dispute_decided", reason: "The review was done as asked." });
    const decided = (await moderator.visitor.get("/api/admin/trade/disputes/?state=decided")).json() as { results: { id: number }[] };
    expect(decided.results.map((row) => row.id)).toContain(progressId);
    await consistent();
  });

  it("upholding moves no money; overturning after the slot was retaken pays from the poster, or refuses when they cannot", async () => {
    const admin = await createSignedInUser(api.app, db(), { siteRole: "admin" });
    const upheld = await disputed();
    const posterBefore = await sinecoin(upheld.poster.visitor);
    expect((await decide(admin.visitor, upheld.progressId, { decision: "uphold", reason: "The brief was clear." })).statusCode).toBe(200);
    expect(await sinecoin(upheld.poster.visitor)).toBe(posterBefore);
    expect((await db().select().from(tradeProgress).where(eq(tradeProgress.id, upheld.progressId)))[0]).toMatchObject({
      status: "rejected",
      disputeDecision: "upheld",
    });

    const retaken = await disputed(60);
    const other = await createSignedInUser(api.app, db());
    expect((await other.visitor.request("POST", `/api/trade/missions/${retaken.id}/accept/`, { json: {} })).statusCode).toBe(201);
    const workerBefore = await sinecoin(retaken.worker.visitor);
    expect(await sinecoin(retaken.poster.visitor)).toBe(30);
    expect((await decide(admin.visitor, retaken.progressId, { decision: "overturn", reason: "Fair work." })).statusCode).toBe(200);
    expect(await sinecoin(retaken.poster.visitor)).toBe(0);
    expect(await sinecoin(retaken.worker.visitor)).toBe(workerBefore + 30);

    const broke = await disputed(30);
    const third = await createSignedInUser(api.app, db());
    expect((await third.visitor.request("POST", `/api/trade/missions/${broke.id}/accept/`, { json: {} })).statusCode).toBe(201);
    expect((await decide(admin.visitor, broke.progressId, { decision: "overturn", reason: "Fair work." })).json()).toMatchObject({
      code: "insufficient_balance",
    });
    await consistent();
  });
});
