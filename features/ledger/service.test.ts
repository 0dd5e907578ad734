import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { createTestDatabase, databaseKinds, type TestDatabase } from "../../tests/support/database.ts";
import { createUser } from "../../tests/support/factories.ts";
import { ledgerEntries, ledgerTransactions, users } from "../../server/db/schema/index.ts";
import { inTransaction } from "../../server/lib/transactions.ts";
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

  it("names accounts by owner and currency", () => {
    expect(accountKey({ userId: 7, currency: "gold" })).toBe("user:7:gold");
    expect(accountKey({ system: "checkin_rewards", currency: "gold" })).toBe("system:checkin_rewards:gold");
  });
});
