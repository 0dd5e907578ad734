import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { createTestDatabase, databaseKinds, type TestDatabase } from "../../tests/support/database.ts";
import { createUser } from "../../tests/support/factories.ts";
import { ledgerEntries, ledgerTransactions, users } from "../../server/db/schema/index.ts";
import { inTransaction } from "../../server/lib/transactions.ts";
import { checkLedger } from "./check.ts";
import { accountKey, ledgerBalance, postLedgerTransaction, UnbalancedLedgerTransaction, unbalancedLedgerTransactions } from "./service.ts";

describe.each(databaseKinds)("double-entry ledger on %s", (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(() => database.dispose());

  it("posts balanced transactions once per idempotency key and moves the cached balance with them", async () => {
    const user = await createUser(database.db);
    const post = () =>
      inTransaction({ db: database.db }, (tx) =>
        postLedgerTransaction(tx, {
          idempotencyKey: `test:${user.id}`,
          kind: "grant",
          data: { reason: "test" },
          entries: [
            { account: { userId: user.id, currency: "sinecoin" }, amount: 50 },
            { account: { system: "test_issuer", currency: "sinecoin" }, amount: -50 },
          ],
        }),
      );
    const first = await post();
    const repeat = await post();
    expect(first.posted).toBe(true);
    expect(repeat).toEqual({ transactionId: first.transactionId, posted: false });
    expect(await database.db.select().from(ledgerEntries).where(eq(ledgerEntries.transactionId, first.transactionId))).toHaveLength(2);
    expect(await ledgerBalance(database.db, { userId: user.id, currency: "sinecoin" })).toBe(50);
    expect(await ledgerBalance(database.db, { userId: user.id, currency: "gold" })).toBe(0);
    const [row] = await database.db.select({ sinecoin: users.sinecoin, gold: users.gold }).from(users).where(eq(users.id, user.id));
    expect(row).toEqual({ sinecoin: 50, gold: 0 });
    expect(await unbalancedLedgerTransactions(database.db)).toEqual([]);
  });

  it.each([
    ["entries that do not sum to zero", [10, -9]],
    ["a single entry", [10]],
    ["a zero amount", [0, 0]],
    ["a fractional amount", [1.5, -1.5]],
  ])("refuses %s and writes nothing", async (_name, amounts) => {
    const user = await createUser(database.db);
    const attempt = inTransaction({ db: database.db }, (tx) =>
      postLedgerTransaction(tx, {
        idempotencyKey: `bad:${user.id}:${amounts.join(",")}`,
        kind: "grant",
        data: {},
        entries: amounts.map((amount, index) => ({
          account: index === 0 ? { userId: user.id, currency: "gold" as const } : { system: "test_issuer", currency: "gold" as const },
          amount,
        })),
      }),
    );
    await expect(attempt).rejects.toBeInstanceOf(UnbalancedLedgerTransaction);
    expect(
      await database.db
        .select()
        .from(ledgerTransactions)
        .where(eq(ledgerTransactions.idempotencyKey, `bad:${user.id}:${amounts.join(",")}`)),
    ).toHaveLength(0);
  });

  it("counts profit by the kind's declaration: cashable income in, a refund takes it back, a red-packet share or one's own money never", async () => {
    const author = await createUser(database.db);
    const reader = await createUser(database.db);
    const post = (key: string, input: Omit<Parameters<typeof postLedgerTransaction>[1], "idempotencyKey">) =>
      inTransaction({ db: database.db }, (tx) =>
        postLedgerTransaction(tx, { ...input, idempotencyKey: `${key}:${author.id}` } as Parameters<typeof postLedgerTransaction>[1]),
      );
    const profit = async (userId: number) =>
      (
        await database.db
          .select({ profit: users.sinecoinTotalProfit, cashable: users.cashoutableSinecoinProfit })
          .from(users)
          .where(eq(users.id, userId))
      )[0];
    await post("grant", {
      kind: "grant",
      data: { reason: "test" },
      entries: [
        { account: { userId: reader.id, currency: "sinecoin" }, amount: 100 },
        { account: { system: "test_issuer", currency: "sinecoin" }, amount: -100 },
      ],
    });
    const described = { writingId: 1, unlockId: 1, authorId: author.id, title: "t", path: "/t", counterparty: "r" };
    await post("unlock", {
      kind: "unlock",
      data: described,
      entries: [
        { account: { userId: reader.id, currency: "sinecoin" }, amount: -30 },
        { account: { userId: author.id, currency: "sinecoin" }, amount: 30 },
      ],
    });
    expect(await profit(author.id)).toEqual({ profit: 30, cashable: 30 });
    // A red packet funded by the reader and claimed by the author: spendable, never profit.
    await post("fund", {
      kind: "red_packet_fund",
      data: { redPacketId: 1, writingId: 1, title: "t", path: "/t" },
      entries: [
        { account: { userId: reader.id, currency: "sinecoin" }, amount: -50 },
        { account: { system: "red_packet:test", currency: "sinecoin" }, amount: 50 },
      ],
    });
    await post("claim", {
      kind: "red_packet_claim",
      data: { redPacketId: 1, writingId: 1, title: "t", path: "/t", counterparty: "r" },
      entries: [
        { account: { system: "red_packet:test", currency: "sinecoin" }, amount: -50 },
        { account: { userId: author.id, currency: "sinecoin" }, amount: 50 },
      ],
    });
    expect(await profit(author.id)).toEqual({ profit: 30, cashable: 30 });
    await post("refund", {
      kind: "unlock_refund",
      data: described,
      entries: [
        { account: { userId: author.id, currency: "sinecoin" }, amount: -30 },
        { account: { userId: reader.id, currency: "sinecoin" }, amount: 30 },
      ],
    });
    expect(await profit(author.id)).toEqual({ profit: 0, cashable: 0 });
    expect(await profit(reader.id)).toEqual({ profit: 0, cashable: 0 });
    const report = await checkLedger(database.db);
    expect(report.mismatchedUsers.filter((row) => row.userId === author.id || row.userId === reader.id)).toEqual([]);
    // The check notices a profit column the entries do not explain (as a red-packet claim counted as profit once did).
    await database.db.update(users).set({ sinecoinTotalProfit: 50 }).where(eq(users.id, author.id));
    expect((await checkLedger(database.db)).mismatchedUsers).toContainEqual({
      userId: author.id,
      field: "sinecoin_total_profit",
      cached: 50,
      ledger: 0,
    });
    await database.db.update(users).set({ sinecoinTotalProfit: 0 }).where(eq(users.id, author.id));
  });

  it("refuses a kind outside the closed list and data that is not the kind's", async () => {
    const user = await createUser(database.db);
    const bad = (input: unknown) =>
      inTransaction({ db: database.db }, (tx) => postLedgerTransaction(tx, input as Parameters<typeof postLedgerTransaction>[1]));
    const entries = [
      { account: { userId: user.id, currency: "gold" }, amount: 1 },
      { account: { system: "test_issuer", currency: "gold" }, amount: -1 },
    ];
    await expect(bad({ idempotencyKey: `k1:${user.id}`, kind: "free_money", data: {}, entries })).rejects.toThrow();
    await expect(bad({ idempotencyKey: `k2:${user.id}`, kind: "tip", data: { tipId: 1 }, entries })).rejects.toThrow();
    // The database refuses an unknown kind too, whoever writes it.
    await expect(database.db.insert(ledgerTransactions).values({ idempotencyKey: `k3:${user.id}`, kind: "free_money" })).rejects.toThrow();
  });

  it("names accounts by owner and currency", () => {
    expect(accountKey({ userId: 7, currency: "gold" })).toBe("user:7:gold");
    expect(accountKey({ system: "checkin_rewards", currency: "gold" })).toBe("system:checkin_rewards:gold");
  });
});
