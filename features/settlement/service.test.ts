import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { createTestDatabase, databaseKinds, type TestDatabase } from "../../tests/support/database.ts";
import { createUser } from "../../tests/support/factories.ts";
import { users } from "../../server/db/schema/index.ts";
import { inTransaction } from "../../server/lib/transactions.ts";
import { checkLedger, ledgerIsConsistent } from "../ledger/check.ts";
import { postLedgerTransaction } from "../ledger/service.ts";
import { incomeHolds, settleIncome } from "./service.ts";

const day = 24 * 60 * 60 * 1000;

describe.each(databaseKinds)("settlement on %s", (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await database.close();
  });

  async function pair() {
    const author = await createUser(database.db);
    const reader = await createUser(database.db);
    await post(`grant:${reader.id}`, {
      kind: "grant",
      data: { reason: "test" },
      entries: [
        { account: { userId: reader.id, currency: "sinecoin" }, amount: 100 },
        { account: { system: "test_issuer", currency: "sinecoin" }, amount: -100 },
      ],
    });
    const described = { writingId: 1, unlockId: 1, authorId: author.id, title: "t", path: "/t", counterparty: "r" };
    const move = (key: string, kind: "unlock" | "unlock_refund", amount: number) =>
      post(`${key}:${author.id}`, {
        kind,
        data: described,
        entries: [
          { account: { userId: reader.id, currency: "sinecoin" }, amount: kind === "unlock" ? -amount : amount },
          { account: { userId: author.id, currency: "sinecoin" }, amount: kind === "unlock" ? amount : -amount },
        ],
      });
    return {
      author,
      reader,
      unlock: (key: string, amount: number) => move(key, "unlock", amount),
      refund: (key: string, amount: number) => move(key, "unlock_refund", amount),
    };
  }

  function post(key: string, input: Omit<Parameters<typeof postLedgerTransaction>[1], "idempotencyKey">) {
    return inTransaction({ db: database.db }, (tx) =>
      postLedgerTransaction(tx, { ...input, idempotencyKey: key } as Parameters<typeof postLedgerTransaction>[1]),
    );
  }

  const cached = async (userId: number) =>
    (
      await database.db
        .select({ profit: users.sinecoinTotalProfit, cashable: users.cashoutableSinecoinProfit, sinecoin: users.sinecoin })
        .from(users)
        .where(eq(users.id, userId))
    )[0];

  it("keeps income pending for the window, then makes it available once however often the settlement runs", async () => {
    const { author, unlock } = await pair();
    await unlock("unlock-a", 30);
    expect(await incomeHolds(database.db, author.id)).toEqual({ pending: 30, available: 0, debt: 0 });
    await settleIncome(database.db, new Date(Date.now() + day));
    expect(await cached(author.id)).toEqual({ profit: 30, cashable: 0, sinecoin: 30 });
    const later = new Date(Date.now() + 8 * day);
    await settleIncome(database.db, later);
    await settleIncome(database.db, later);
    await settleIncome(database.db, new Date(later.getTime() + 1000));
    expect(await incomeHolds(database.db, author.id)).toEqual({ pending: 0, available: 30, debt: 0 });
    expect(await cached(author.id)).toEqual({ profit: 30, cashable: 30, sinecoin: 30 });
    expect(ledgerIsConsistent(await checkLedger(database.db))).toBe(true);
  });

  it("takes a refund in the window from pending, and a later one from available", async () => {
    const { author, unlock, refund } = await pair();
    await unlock("unlock-b", 20);
    await refund("refund-b", 20);
    expect(await incomeHolds(database.db, author.id)).toEqual({ pending: 0, available: 0, debt: 0 });
    await settleIncome(database.db, new Date(Date.now() + 8 * day));
    expect(await cached(author.id)).toEqual({ profit: 0, cashable: 0, sinecoin: 0 });
    await unlock("unlock-c", 25);
    await settleIncome(database.db, new Date(Date.now() + 9 * day));
    expect(await cached(author.id)).toEqual({ profit: 25, cashable: 25, sinecoin: 25 });
    await refund("refund-c", 10);
    expect(await incomeHolds(database.db, author.id)).toEqual({ pending: 0, available: 15, debt: 0 });
    expect(await cached(author.id)).toEqual({ profit: 15, cashable: 15, sinecoin: 15 });
    expect(ledgerIsConsistent(await checkLedger(database.db))).toBe(true);
  });
});
