import { eq } from "drizzle-orm";
import { sandboxPayouts } from "../../server/db/schema/index.ts";
import type { PayoutOutcome, PayoutProvider, PayoutTransfer, PayoutContext } from "./provider.ts";

async function outcome(transfer: PayoutTransfer, { db }: PayoutContext): Promise<PayoutOutcome> {
  const [row] = await db.select().from(sandboxPayouts).where(eq(sandboxPayouts.cashoutId, transfer.id));
  if (!row) return { state: "pending" };
  return row.status === "paid" ? { state: "paid", ref: `sandbox-${transfer.id}` } : { state: "failed", reason: row.reason ?? "sandbox" };
}

/**
 * The payout sandbox: no money moves. A transfer waits for a tester, who marks it paid or failed
 * on the cashout page (`markSandboxPayout`); both a transfer and a query answer that mark.
 */
export const sandboxPayoutProvider: PayoutProvider = {
  name: "sandbox",
  transfer: outcome,
  query: outcome,
};
