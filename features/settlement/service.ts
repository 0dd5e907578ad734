import { sql } from "drizzle-orm";
import type { Database } from "../../server/db/client.ts";
import { inTransaction } from "../../server/lib/transactions.ts";
import { userTag } from "../../server/lib/cache-tags.ts";
import { emit } from "../events/bus.ts";
import { ledgerBalance, postLedgerTransaction } from "../ledger/service.ts";
import { settlementCutoff } from "./settings.ts";

async function rows<T>(db: Database, query: ReturnType<typeof sql>): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

/**
 * Moves every user's income older than the settlement window from `pending` to `available`.
 * What is due for a user is the income credited to `pending` before the cutoff less everything
 * already taken out of `pending` (earlier settlements, refunds in the window), so a second run
 * finds nothing due and moves nothing: the run is idempotent, and the user's row is locked so two
 * concurrent runs cannot both move it. A debt left by a late refund is recovered first. Answers
 * how many users were settled.
 */
export async function settleIncome(db: Database, now: Date): Promise<number> {
  const cutoff = settlementCutoff(now);
  const candidates = await rows<{ user_id: number }>(
    db,
    sql`select a.user_id from ledger_accounts a join ledger_entries e on e.account_id = a.id
        where a.hold = 'pending' group by a.user_id having sum(e.amount) > 0 order by a.user_id`,
  );
  let settled = 0;
  for (const { user_id: userId } of candidates) {
    const moved = await inTransaction({ db }, async (tx) => {
      await tx.db.execute(sql`select id from users where id = ${userId} for update`);
      const [due] = await rows<{ due: string }>(
        tx.db,
        sql`select coalesce(sum(e.amount) filter (where e.amount > 0 and t.created_at <= ${cutoff.toISOString()}), 0)
                 + coalesce(sum(e.amount) filter (where e.amount < 0), 0) as due
            from ledger_accounts a join ledger_entries e on e.account_id = a.id join ledger_transactions t on t.id = e.transaction_id
            where a.user_id = ${userId} and a.hold = 'pending'`,
      );
      const pending = await ledgerBalance(tx.db, { userId, currency: "profit", hold: "pending" });
      const amount = Math.min(Number(due?.due ?? 0), pending);
      if (amount <= 0) return false;
      const recovered = Math.min(amount, -(await ledgerBalance(tx.db, { userId, currency: "profit", hold: "debt" })));
      const entries = [
        { account: { userId, currency: "profit" as const, hold: "pending" as const }, amount: -amount },
        ...(amount > recovered
          ? [{ account: { userId, currency: "profit" as const, hold: "available" as const }, amount: amount - recovered }]
          : []),
        ...(recovered > 0 ? [{ account: { userId, currency: "profit" as const, hold: "debt" as const }, amount: recovered }] : []),
      ];
      const { posted } = await postLedgerTransaction(tx, {
        idempotencyKey: `settlement:${userId}:${now.toISOString()}`,
        kind: "settlement",
        data: { cutoff: cutoff.toISOString() },
        entries,
      });
      if (!posted) return false;
      await emit(tx, {
        verb: "income.settled",
        actorId: null,
        subjectId: userId,
        recipientIds: [userId],
        data: { amount, recovered, cutoff: cutoff.toISOString() },
      });
      tx.invalidate(userTag(userId));
      return true;
    });
    if (moved) settled += 1;
  }
  return settled;
}

/** A user's profit holds: income still pending, settled and available, and debt owed by late refunds. */
export async function incomeHolds(db: Database, userId: number): Promise<{ pending: number; available: number; debt: number }> {
  const [pending, available, debt] = await Promise.all(
    (["pending", "available", "debt"] as const).map((hold) => ledgerBalance(db, { userId, currency: "profit", hold })),
  );
  return { pending: pending!, available: available!, debt: Math.max(0, -debt!) };
}
