import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { createTestApi, type TestApi, type Visitor } from "../../tests/support/api.ts";
import { createSignedInUser, createWriting } from "../../tests/support/factories.ts";
import { databaseKinds } from "../../tests/support/database.ts";
import { grant } from "../../tests/support/money.ts";
import { events, redPacketClaims, redPackets } from "../../server/db/schema/index.ts";
import { checkLedger, ledgerIsConsistent } from "../ledger/check.ts";
import { drawShare, expireRedPackets } from "./service.ts";

describe.each(databaseKinds)("red packets on %s", (kind) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi(kind);
  });
  afterAll(() => api.close());
  const db = () => api.database.db;
  let keys = 0;
  const headers = () => ({ "idempotency-key": `red-packet-${Date.now()}-${(keys += 1)}` });
  const fund = (visitor: Visitor, writingId: number, body: unknown) =>
    visitor.request("POST", `/api/writings/${writingId}/red_packets/`, { json: body, headers: headers() });
  const claim = (visitor: Visitor, id: number) =>
    visitor.request("POST", `/api/red_packets/${id}/claim/`, { json: {}, headers: headers() });
  const sinecoin = async (visitor: Visitor) => ((await visitor.get("/api/wallet/")).json() as { sinecoin: number }).sinecoin;

  it("gives exactly 10 of 100 concurrent claims on 10 shares, summing exactly to the total", async () => {
    const author = await createSignedInUser(api.app, db());
    const writing = await createWriting(db(), author.user);
    await grant(db(), author.user.id, "sinecoin", 100);
    const funded = await fund(author.visitor, writing.id, { total: 100, shares: 10, split: "random", expires_in_hours: 24 });
    expect(funded.statusCode, funded.body).toBe(201);
    const { id } = funded.json() as { id: number };
    expect(await sinecoin(author.visitor)).toBe(0);
    const readers = await Promise.all(Array.from({ length: 100 }, () => createSignedInUser(api.app, db())));
    const answers = await Promise.all(readers.map((reader) => claim(reader.visitor, id)));
    const won = answers.filter((answer) => answer.statusCode === 200);
    expect(won).toHaveLength(10);
    expect(
      answers
        .filter((answer) => answer.statusCode === 409)
        .every((answer) => (answer.json() as { code: string }).code === "red_packet_empty"),
    ).toBe(true);
    expect(won.map((answer) => (answer.json() as { amount: number }).amount).reduce((sum, amount) => sum + amount, 0)).toBe(100);
    const rows = await db().select().from(redPacketClaims).where(eq(redPacketClaims.redPacketId, id));
    expect(rows.reduce((sum, row) => sum + row.amount, 0)).toBe(100);
    // A winner cannot open it twice.
    const winner = readers[answers.findIndex((answer) => answer.statusCode === 200)]!;
    expect((await claim(winner.visitor, id)).json()).toMatchObject({ code: "already_claimed" });
    const report = await checkLedger(db());
    expect(report.mismatchedUsers).toEqual([]);
    expect(ledgerIsConsistent(report)).toBe(true);
  });

  it("returns the rest to the author once at expiry, and refuses what the balance does not cover", async () => {
    const author = await createSignedInUser(api.app, db());
    const writing = await createWriting(db(), author.user);
    await grant(db(), author.user.id, "sinecoin", 30);
    expect((await fund(author.visitor, writing.id, { total: 31, shares: 1, split: "equal", expires_in_hours: 1 })).json()).toMatchObject({
      code: "insufficient_balance",
    });
    const { id } = (await fund(author.visitor, writing.id, { total: 30, shares: 3, split: "equal", expires_in_hours: 1 })).json() as {
      id: number;
    };
    const reader = await createSignedInUser(api.app, db());
    expect((await claim(reader.visitor, id)).json()).toEqual({ amount: 10 });
    expect((await claim(author.visitor, id)).statusCode).toBe(403);
    const later = new Date(Date.now() + 2 * 3_600_000);
    expect(await expireRedPackets(db(), later)).toBeGreaterThanOrEqual(1);
    expect(await expireRedPackets(db(), later)).toBe(0);
    expect(await sinecoin(author.visitor)).toBe(20);
    const late = await createSignedInUser(api.app, db());
    expect((await claim(late.visitor, id)).json()).toMatchObject({ code: "red_packet_empty" });
    expect(ledgerIsConsistent(await checkLedger(db()))).toBe(true);
  });

  it("pays shares as spendable sinecoin, never profit, and refunds the rest to the funder when the writing is deleted", async () => {
    const author = await createSignedInUser(api.app, db());
    const writing = await createWriting(db(), author.user);
    await grant(db(), author.user.id, "sinecoin", 20);
    const { id } = (await fund(author.visitor, writing.id, { total: 20, shares: 4, split: "equal", expires_in_hours: 24 })).json() as {
      id: number;
    };
    // A second account claiming the packet gets money to spend, not cashable profit.
    const second = await createSignedInUser(api.app, db());
    expect((await claim(second.visitor, id)).json()).toEqual({ amount: 5 });
    expect((await second.visitor.get("/api/wallet/")).json()).toMatchObject({
      sinecoin: 5,
      sinecoin_total_profit: 0,
      cashoutable_sinecoin_profit: 0,
    });
    const deleted = await author.visitor.request("DELETE", `/api/writings/${writing.id}/`);
    expect(deleted.statusCode, deleted.body).toBeLessThan(300);
    expect(await sinecoin(author.visitor)).toBe(15);
    const [packet] = await db().select().from(redPackets).where(eq(redPackets.id, id));
    expect(packet).toMatchObject({ status: "withdrawn", writingId: null, remainingAmount: 0 });
    // Nothing is left to expire or claim.
    expect(await expireRedPackets(db(), new Date(Date.now() + 48 * 3_600_000))).toBe(0);
    expect(await sinecoin(author.visitor)).toBe(15);
    const verbs = (
      await db().select({ verb: events.verb, data: events.data }).from(events).where(eq(events.verb, "red_packet.refunded"))
    ).filter((row) => (row.data as { redPacketId: number }).redPacketId === id);
    expect(verbs).toEqual([
      { verb: "red_packet.refunded", data: { redPacketId: id, writingId: writing.id, amount: 15, reason: "writing_deleted" } },
    ]);
    expect(ledgerIsConsistent(await checkLedger(db()))).toBe(true);
  });

  it("lets a moderator's resolve with delete delete a writing with a red packet, the rest back to its funder", async () => {
    const author = await createSignedInUser(api.app, db());
    const writing = await createWriting(db(), author.user);
    await grant(db(), author.user.id, "sinecoin", 1);
    expect((await fund(author.visitor, writing.id, { total: 1, shares: 1, split: "equal", expires_in_hours: 24 })).statusCode).toBe(201);
    expect(await sinecoin(author.visitor)).toBe(0);
    const reporter = await createSignedInUser(api.app, db());
    const filed = (
      await reporter.visitor.request("POST", `/api/subjects/writing/${writing.id}/reports/`, {
        json: { reason: "spam", description: "广告" },
      })
    ).json() as { case_id: number };
    const moderator = await createSignedInUser(api.app, db(), { siteRole: "moderator" });
    const resolved = await moderator.visitor.request("POST", `/api/moderation/cases/${filed.case_id}/resolve/`, {
      json: { action: "delete", note: "删除" },
    });
    expect(resolved.statusCode, resolved.body).toBe(200);
    expect(await sinecoin(author.visitor)).toBe(1);
    expect(ledgerIsConsistent(await checkLedger(db()))).toBe(true);
  });

  it("draws shares of at least one that add up to the total", () => {
    for (let round = 0; round < 50; round += 1) {
      let amount = 37;
      const drawn: number[] = [];
      for (let left = 9; left > 0; left -= 1) {
        const share = drawShare("random", 37, 9, amount, left);
        expect(share).toBeGreaterThanOrEqual(1);
        drawn.push(share);
        amount -= share;
      }
      expect(drawn.reduce((sum, share) => sum + share, 0)).toBe(37);
    }
  });
});
