import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { users } from "./accounts.ts";

export const cashoutStatuses = ["requested", "approved", "rejected", "cancelled", "paid", "failed"] as const;
export const payoutProviders = ["sandbox", "alipay", "wechat"] as const;

/**
 * A cashout: available profit taken out to the user's payout account. `requested` (the coins sit in
 * the user's `payout_hold`; the user may cancel) → `approved` | `rejected` (a site admin, with a
 * reason) → `paid` | `failed` (the provider's reason; the coins return to available). Its id is the
 * payout provider's idempotency key; `sent_at` says a transfer was attempted, so an unknown outcome
 * is asked of the provider before any retry (and a retry reuses the same id).
 */
export const cashouts = pgTable(
  "cashouts",
  {
    /** Random, unguessable (`co_…`): it travels to the provider as its out-biz number. */
    id: text("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    /** Gross sinecoin taken out of available profit. */
    amount: integer("amount").notNull(),
    /** The platform's fee, in sinecoin. */
    fee: integer("fee").notNull(),
    /** What the amount after the fee is worth, in fen (the labour remuneration before tax). */
    grossFen: integer("gross_fen").notNull(),
    /** Individual income tax withheld on labour remuneration (劳务报酬预扣), in fen. */
    taxWithheldFen: integer("tax_withheld_fen").notNull(),
    /** What reaches the payout account, in fen. */
    netFen: integer("net_fen").notNull(),
    /** The rate used: fen per sinecoin. */
    fenPerSinecoin: integer("fen_per_sinecoin").notNull(),
    /** Which provider pays it (the sandbox while top-ups are free). */
    provider: text("provider", { enum: payoutProviders }).notNull(),
    /** The payout account when it was requested: its kind, account and real name. */
    payeeKind: text("payee_kind", { enum: ["alipay", "wechat"] }).notNull(),
    payeeAccount: text("payee_account").notNull(),
    payeeName: text("payee_name").notNull(),
    status: text("status", { enum: cashoutStatuses }).notNull().default("requested"),
    /** Why it was rejected (the admin's words) or failed (the provider's). */
    reason: text("reason"),
    deciderId: integer("decider_id").references(() => users.id, { onDelete: "set null" }),
    decidedAt: timestamp("decided_at", { withTimezone: true }),
    /** When a transfer was first attempted: from then on the outcome is asked before sending again. */
    sentAt: timestamp("sent_at", { withTimezone: true }),
    attempts: integer("attempts").notNull().default(0),
    /** The provider's number for the transfer, once it reports it. */
    providerRef: text("provider_ref"),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("cashouts_user_idx").on(table.userId, table.createdAt),
    index("cashouts_status_idx").on(table.status, table.createdAt),
    check(
      "cashouts_amounts_check",
      sql`${table.amount} > 0 and ${table.fee} >= 0 and ${table.fee} < ${table.amount} and ${table.taxWithheldFen} >= 0 and ${table.netFen} >= 0`,
    ),
    check("cashouts_status_check", sql`${table.status} in ('requested', 'approved', 'rejected', 'cancelled', 'paid', 'failed')`),
  ],
);

/** What the payout sandbox's tester decided for a cashout (first press wins): what its query answers. */
export const sandboxPayouts = pgTable(
  "sandbox_payouts",
  {
    cashoutId: text("cashout_id")
      .primaryKey()
      .references(() => cashouts.id, { onDelete: "cascade" }),
    status: text("status", { enum: ["paid", "failed"] }).notNull(),
    reason: text("reason"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [check("sandbox_payouts_status_check", sql`${table.status} in ('paid', 'failed')`)],
);
