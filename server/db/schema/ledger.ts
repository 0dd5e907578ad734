import { sql } from "drizzle-orm";
import { bigint, bigserial, check, index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { users } from "./accounts.ts";
import { ledgerKindNames } from "../../../features/ledger/kinds.ts";

export const currencies = ["gold", "sinecoin"] as const;

/**
 * Double-entry ledger. An account holds one currency for one user (`user:12:gold`) or for the
 * system (`system:checkin_rewards:gold`); its balance is the sum of its entries.
 */
export const ledgerAccounts = pgTable(
  "ledger_accounts",
  {
    id: serial("id").primaryKey(),
    /** `user:<id>:<currency>` or `system:<name>:<currency>`. */
    key: text("key").notNull(),
    userId: integer("user_id").references(() => users.id, { onDelete: "restrict" }),
    currency: text("currency", { enum: currencies }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("ledger_accounts_key_idx").on(table.key),
    check("ledger_accounts_currency_check", sql`${table.currency} in ('gold', 'sinecoin')`),
  ],
);

/** One business movement of value; its entries sum to zero. The idempotency key makes a retry a no-op. */
export const ledgerTransactions = pgTable(
  "ledger_transactions",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    idempotencyKey: text("idempotency_key").notNull(),
    /** What it was: one of `ledgerKinds` (features/ledger/kinds.ts), kept so by the check below. */
    kind: text("kind").notNull(),
    data: jsonb("data").$type<Record<string, unknown>>().notNull().default({}),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("ledger_transactions_idempotency_idx").on(table.idempotencyKey),
    check("ledger_transactions_kind_check", sql.raw(`kind in (${ledgerKindNames.map((name) => `'${name}'`).join(", ")})`)),
  ],
);

export const ledgerEntries = pgTable(
  "ledger_entries",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    transactionId: bigint("transaction_id", { mode: "number" })
      .notNull()
      .references(() => ledgerTransactions.id, { onDelete: "restrict" }),
    accountId: integer("account_id")
      .notNull()
      .references(() => ledgerAccounts.id, { onDelete: "restrict" }),
    /** Integer units of the account's currency; credit positive, debit negative. */
    amount: integer("amount").notNull(),
  },
  (table) => [
    index("ledger_entries_account_idx").on(table.accountId),
    index("ledger_entries_transaction_idx").on(table.transactionId),
    check("ledger_entries_amount_nonzero", sql`${table.amount} <> 0`),
  ],
);
