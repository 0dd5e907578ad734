import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { createTestApi, type TestApi, type Visitor } from "../../tests/support/api.ts";
import { createSignedInUser } from "../../tests/support/factories.ts";
import { databaseKinds } from "../../tests/support/database.ts";
import { grant } from "../../tests/support/money.ts";
import { ledgerAccounts, ledgerEntries, notifications, tradeMissions, tradeProgress, users } from "../../server/db/schema/index.ts";
import { checkLedger, ledgerIsConsistent } from "../ledger/check.ts";

describe.each(databaseKinds)("the task market on %s", (kind) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi(kind, { jobs: true });
  });
  afterAll(() => api.close());
  const db = () => api.database.db;
  let keys = 0;
  const headers = () => ({ "idempotency-key": `trade-${Date.now()}-${(keys += 1)}` });
  const tomorrow = new Date(Date.now() + 86_400_000).toISOString();
  const post = (visitor: Visitor, body: Record<string, unknown>, key = headers()) =>
    visitor.request("POST", "/api/trade/missions/", {
      json: { circle_id: 1, title: "Translate an entry", description: "Into **English**.", deadline: tomorrow, ...body },
      headers: key,
    });
  const accept = (visitor: Visitor, id: number) => visitor.request("POST", `/api/trade/missions/${id}/accept/`, { json: {} });
  const step = (visitor: Visitor, progressId: number, action: string, json: unknown = {}) =>
    visitor.request("POST", `/api/trade/progress/${progressId}/${action}/`, { json });
  const wallet = async (visitor: Visitor) =>
    (await visitor.get("/api/wallet/")).json() as { sinecoin: number; sinecoin_total_profit: number };
  const held = async (id: number) => {
    const rows = await db()
      .select({ amount: ledgerEntries.amount })
      .from(ledgerEntries)
      .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, ledgerEntries.accountId))
      .where(eq(ledgerAccounts.key, `system:trade_mission:${id}:sinecoin`));
    return rows.reduce((sum, row) => sum + row.amount, 0);
  };
  const consistent = async () => {
    const report = await checkLedger(db());
    expect(report.mismatchedUsers).toEqual([]);
    expect(ledgerIsConsistent(report)).toBe(true);
  };
  async function postedTask(reward: number, slots: number) {
    const poster = await createSignedInUser(api.app, db());
    await grant(db(), poster.user.id, "sinecoin", reward * slots);
    const answer = await post(poster.visitor, { reward, slots });
    expect(answer.statusCode, answer.body).toBe(201);
    return { poster, id: (answer.json() as { id: number }).id };
  }
  async function submitted(id: number) {
    const worker = await createSignedInUser(api.app, db());
    const { progress_id } = (await accept(worker.visitor, id)).json() as { progress_id: number };
    expect((await step(worker.visitor, progress_id, "submit", { content: "Done, see the entry." })).statusCode).toBe(200);
    return { worker, progressId: progress_id };
  }

  it("escrows reward × slots at once, refuses what the balance does not cover, and posts once per idempotency key", async () => {
    const poster = await createSignedInUser(api.app, db());
    await grant(db(), poster.user.id, "sinecoin", 100);
    expect((await post(poster.visitor, { reward: 40, slots: 3 })).json()).toMatchObject({ code: "insufficient_balance" });
    const key = headers();
    const first = await post(poster.visitor, { reward: 30, slots: 3 }, key);
    expect(first.statusCode, first.body).toBe(201);
    const again = await post(poster.visitor, { reward: 30, slots: 3 }, key);
    expect(again.json()).toEqual(first.json());
    const { id } = first.json() as { id: number };
    expect(await held(id)).toBe(90);
    expect((await wallet(poster.visitor)).sinecoin).toBe(10);
    const shown = (await poster.visitor.get(`/api/trade/missions/${id}/`)).json() as Record<string, unknown>;
    expect(shown).toMatchObject({ id, reward: 30, slots: 3, slots_left: 3, status: "open", my_progress: null });
    const listed = (await poster.visitor.get("/api/trade/missions/?circle_id=1&status=open")).json() as { results: { id: number }[] };
    expect(listed.results.map((task) => task.id)).toContain(id);
    expect((await post(poster.visitor, { reward: 1, slots: 1, deadline: "2000-01-01T00:00:00Z" })).statusCode).toBe(400);
    expect((await post(poster.visitor, { reward: 0, slots: 1 })).statusCode).toBe(400);
    await consistent();
  });

  it("gives exactly 3 progress records to 20 workers accepting a 3-slot task at once, never to the poster", async () => {
    const { poster, id } = await postedTask(10, 3);
    expect((await accept(poster.visitor, id)).statusCode).toBe(403);
    const workers = await Promise.all(Array.from({ length: 20 }, () => createSignedInUser(api.app, db())));
    const answers = await Promise.all(workers.map((worker) => accept(worker.visitor, id)));
    expect(answers.filter((answer) => answer.statusCode === 201)).toHaveLength(3);
    expect(
      answers.filter((answer) => answer.statusCode === 409).every((answer) => (answer.json() as { code: string }).code === "no_slots"),
    ).toBe(true);
    expect(await db().select().from(tradeProgress).where(eq(tradeProgress.missionId, id))).toHaveLength(3);
    const winner = workers[answers.findIndex((answer) => answer.statusCode === 201)]!;
    expect((await accept(winner.visitor, id)).json()).toMatchObject({ code: "already_accepted" });
    const notices = await db().select().from(notifications).where(eq(notifications.recipientId, poster.user.id));
    expect(notices.filter((notice) => notice.verb === "trade.accepted")).toHaveLength(3);
  });

  it("pays the reward once, as profit, under 10 concurrent approvals", async () => {
    const { poster, id } = await postedTask(25, 2);
    const { worker, progressId } = await submitted(id);
    expect((await step(worker.visitor, progressId, "approve")).statusCode).toBe(403);
    const answers = await Promise.all(Array.from({ length: 10 }, () => step(poster.visitor, progressId, "approve")));
    expect(answers.every((answer) => answer.statusCode === 200)).toBe(true);
    expect(await wallet(worker.visitor)).toMatchObject({ sinecoin: 25, sinecoin_total_profit: 25 });
    expect(await held(id)).toBe(25);
    const mine = (await worker.visitor.get("/api/trade/progress/?role=worker")).json() as { results: { id: number; status: string }[] };
    expect(mine.results).toEqual([expect.objectContaining({ id: progressId, status: "approved" })]);
    const theirs = (await poster.visitor.get("/api/trade/progress/?role=poster")).json() as { results: { id: number }[] };
    expect(theirs.results.map((record) => record.id)).toEqual([progressId]);
    const stranger = await createSignedInUser(api.app, db());
    expect((await stranger.visitor.get(`/api/trade/progress/${progressId}/`)).statusCode).toBe(404);
    await consistent();
  });

  it("reopens a rejected slot for someone else; the rejected worker may dispute once", async () => {
    const { poster, id } = await postedTask(10, 1);
    const { worker, progressId } = await submitted(id);
    const late = await createSignedInUser(api.app, db());
    expect((await accept(late.visitor, id)).json()).toMatchObject({ code: "no_slots" });
    expect((await step(poster.visitor, progressId, "reject", {})).statusCode).toBe(400);
    const rejected = await step(poster.visitor, progressId, "reject", { reason: "Not a translation." });
    expect(rejected.json()).toMatchObject({ status: "rejected", reason: "Not a translation." });
    expect((await accept(late.visitor, id)).statusCode).toBe(201);
    expect((await step(worker.visitor, progressId, "dispute")).json()).toMatchObject({ disputed: true });
    expect((await step(worker.visitor, progressId, "dispute")).json()).toMatchObject({ code: "trade_progress_closed" });
    expect(await held(id)).toBe(10);
    await consistent();
  });

  it("cancelling refunds only the untaken slots", async () => {
    const { poster, id } = await postedTask(10, 3);
    await submitted(id);
    const cancelled = await poster.visitor.request("DELETE", `/api/trade/missions/${id}/`);
    expect(cancelled.statusCode).toBe(204);
    expect((await wallet(poster.visitor)).sinecoin).toBe(20);
    expect(await held(id)).toBe(10);
    expect((await poster.visitor.request("DELETE", `/api/trade/missions/${id}/`)).statusCode).toBe(204);
    expect((await wallet(poster.visitor)).sinecoin).toBe(20);
    await consistent();
  });

  it("approves stale submissions and refunds at the deadline by the jobs, run twice moving once", async () => {
    const { poster, id } = await postedTask(10, 4);
    const { worker, progressId } = await submitted(id);
    const idle = await createSignedInUser(api.app, db());
    expect((await accept(idle.visitor, id)).statusCode).toBe(201);
    // The deadline passes with one submission pending, one slot taken but idle and two untaken.
    await db()
      .update(tradeMissions)
      .set({ deadline: new Date(Date.now() - 1000) })
      .where(eq(tradeMissions.id, id));
    await api.jobs!.runJobNow("trade-deadlines");
    await api.jobs!.runJobNow("trade-deadlines");
    expect((await wallet(poster.visitor)).sinecoin).toBe(30);
    expect(await held(id)).toBe(10);
    const [task] = await db().select().from(tradeMissions).where(eq(tradeMissions.id, id));
    expect(task).toMatchObject({ status: "expired", openSlots: 0 });
    // The pending submission is approved once its 72 hours are over.
    await api.jobs!.runJobNow("trade-auto-approve");
    expect((await wallet(worker.visitor)).sinecoin).toBe(0);
    await db()
      .update(tradeProgress)
      .set({ submittedAt: new Date(Date.now() - 73 * 3_600_000) })
      .where(eq(tradeProgress.id, progressId));
    await api.jobs!.runJobNow("trade-auto-approve");
    await api.jobs!.runJobNow("trade-auto-approve");
    expect(await wallet(worker.visitor)).toMatchObject({ sinecoin: 10, sinecoin_total_profit: 10 });
    expect(await held(id)).toBe(0);
    const [record] = await db().select().from(tradeProgress).where(eq(tradeProgress.id, progressId));
    expect(record).toMatchObject({ status: "approved", autoApproved: 1 });
    const [posterRow] = await db().select({ sinecoin: users.sinecoin }).from(users).where(eq(users.id, poster.user.id));
    expect(posterRow!.sinecoin).toBe(30);
    await consistent();
  });
});
