import type { Database } from "../../server/db/client.ts";
import { invalidate } from "../../server/lib/invalidation.ts";
import { userTag } from "../../server/lib/cache-tags.ts";
import { inTransaction } from "../../server/lib/transactions.ts";
import { postLedgerTransaction, type Currency } from "../../features/ledger/service.ts";

let grants = 0;

/** Gives a user money from a test issuer through the real ledger (balanced, cached balance moved). */
export async function grant(db: Database, userId: number, currency: Currency, amount: number): Promise<void> {
  grants += 1;
  await inTransaction({ db }, (tx) =>
    postLedgerTransaction(tx, {
      idempotencyKey: `test-grant:${userId}:${currency}:${Date.now()}:${grants}`,
      kind: "grant",
      data: { reason: "test" },
      entries: [
        { account: { userId, currency }, amount },
        { account: { system: "test_issuer", currency }, amount: -amount },
      ],
    }),
  );
  await invalidate([userTag(userId)]);
}
