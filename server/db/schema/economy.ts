import { sql } from "drizzle-orm";
import { check, index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { users } from "./accounts.ts";
import { writings } from "./writings.ts";

/**
 * The first answer of every money-moving request, by its idempotency key: a retry gets it again
 * and moves nothing twice; the same key with another body is refused (`request_hash` differs).
 */
export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    /** The operation it was used for (`tip`, `topup`…). */
    operation: text("operation").notNull(),
    /** sha256 of the operation and its canonical input. */
    requestHash: text("request_hash").notNull(),
    /** The use case's result, replayed to a retry. */
    result: jsonb("result").$type<unknown>().notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.key] }), index("idempotency_keys_created_idx").on(table.createdAt)],
);

export const paymentOrderStatuses = ["created", "paid", "failed", "expired"] as const;
export const paymentMethods = ["wechat", "alipay"] as const;
export const paymentProviders = ["sandbox", "alipay", "wechat"] as const;

/** A top-up order: created → paid | failed | expired; it credits sinecoin exactly once, when it becomes paid. */
export const paymentOrders = pgTable(
  "payment_orders",
  {
    /** Random, unguessable (`tp_…`): it travels to the provider and back. */
    id: text("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    /** Whole sinecoin bought; the price in fen is `amount * 100 * price rate` (0 while the site is free: see config). */
    amount: integer("amount").notNull(),
    /** What the provider charges, in fen. */
    priceFen: integer("price_fen").notNull(),
    method: text("method", { enum: paymentMethods }).notNull(),
    provider: text("provider", { enum: paymentProviders }).notNull(),
    status: text("status", { enum: paymentOrderStatuses }).notNull().default("created"),
    /** The provider's own number for the payment, once it reports it. */
    providerTradeNo: text("provider_trade_no"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    settledAt: timestamp("settled_at", { withTimezone: true }),
  },
  (table) => [
    index("payment_orders_user_idx").on(table.userId, table.createdAt),
    index("payment_orders_open_idx")
      .on(table.expiresAt)
      .where(sql`${table.status} = 'created'`),
    check("payment_orders_amount_check", sql`${table.amount} > 0 and ${table.priceFen} >= 0`),
    check("payment_orders_status_check", sql`${table.status} in ('created', 'paid', 'failed', 'expired')`),
  ],
);

/**
 * The built-in payment sandbox's own record of what its cashier did with an order (paid or failed,
 * first press wins): what the sandbox's order query answers, like a real provider's books.
 */
export const sandboxPayments = pgTable(
  "sandbox_payments",
  {
    orderId: text("order_id")
      .primaryKey()
      .references(() => paymentOrders.id, { onDelete: "cascade" }),
    status: text("status", { enum: ["paid", "failed"] }).notNull(),
    tradeNo: text("trade_no").notNull(),
    /** What the trade was for, in fen (the order's price). */
    paidFen: integer("paid_fen").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [check("sandbox_payments_status_check", sql`${table.status} in ('paid', 'failed')`)],
);

/**
 * Every notify a provider sent, accepted or refused (bad signature, wrong amount, unknown order),
 * and every order query that settled an order (`query:` outcomes): the audit trail.
 */
export const paymentCallbacks = pgTable(
  "payment_callbacks",
  {
    id: serial("id").primaryKey(),
    provider: text("provider").notNull(),
    orderId: text("order_id"),
    /** `credited`, `replayed`, `failed`, `ignored`, or `refused:<reason>`; prefixed `query:` when an order query found it. */
    outcome: text("outcome").notNull(),
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull().default({}),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("payment_callbacks_order_idx").on(table.orderId)],
);

/** A tip (赞赏) on a writing, an answer or a book; its money is the ledger transaction `tip:<id>`. */
export const tips = pgTable(
  "tips",
  {
    id: serial("id").primaryKey(),
    subjectType: text("subject_type").notNull(),
    subjectId: integer("subject_id").notNull(),
    tipperId: integer("tipper_id")
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    authorId: integer("author_id")
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    amount: integer("amount").notNull(),
    /** What the author received after the platform's share. */
    authorAmount: integer("author_amount").notNull(),
    message: text("message").notNull().default(""),
    title: text("title").notNull().default(""),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("tips_subject_idx").on(table.subjectType, table.subjectId, table.createdAt),
    index("tips_author_idx").on(table.authorId, table.createdAt),
    check("tips_amount_check", sql`${table.amount} > 0 and ${table.authorAmount} >= 0 and ${table.authorAmount} <= ${table.amount}`),
  ],
);

/**
 * Where cashouts are paid: an Alipay account (`provider` alipay: a mobile number or email) or a
 * WeChat user (`provider` wechat: the openid under our app), with the real name on it (shown masked).
 */
export const payoutAccounts = pgTable(
  "payout_accounts",
  {
    userId: integer("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    provider: text("provider", { enum: ["alipay", "wechat"] })
      .notNull()
      .default("alipay"),
    /** The account at the provider (the column keeps its first name: Alipay came first). */
    alipayAccount: text("alipay_account").notNull(),
    realName: text("real_name").notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [check("payout_accounts_provider_check", sql`${table.provider} in ('alipay', 'wechat')`)],
);

/**
 * The paid part of a pay-to-view writing (after its `<!-- paywall -->` line), rendered apart from
 * the free part in `writings.html`: nothing that reads writings rows (lists, memories, the page
 * cache, excerpts) ever holds it; only an entitled reader's page or unlock loads it.
 */
export const writingPaidParts = pgTable("writing_paid_parts", {
  writingId: integer("writing_id")
    .primaryKey()
    .references(() => writings.id, { onDelete: "cascade" }),
  html: text("html").notNull(),
});

/** A reader's unlock of a pay-to-view writing: one per reader and writing; refunded at most once (a request the author approved). */
export const writingUnlocks = pgTable(
  "writing_unlocks",
  {
    id: serial("id").primaryKey(),
    writingId: integer("writing_id")
      .notNull()
      .references(() => writings.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    price: integer("price").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** Set while refunded (the reader no longer reads the paid part). */
    refundedAt: timestamp("refunded_at", { withTimezone: true }),
    /** A reader is refunded once per writing, ever. */
    refunds: integer("refunds").notNull().default(0),
  },
  (table) => [uniqueIndex("writing_unlocks_reader_idx").on(table.writingId, table.userId)],
);

/**
 * A reader's request to have an unlock paid back, with a reason, decided by the writing's author
 * (or a site moderator): approved pays it back, rejected keeps it. One open request per unlock.
 */
export const unlockRefundRequests = pgTable(
  "unlock_refund_requests",
  {
    id: serial("id").primaryKey(),
    unlockId: integer("unlock_id")
      .notNull()
      .references(() => writingUnlocks.id, { onDelete: "cascade" }),
    writingId: integer("writing_id")
      .notNull()
      .references(() => writings.id, { onDelete: "cascade" }),
    readerId: integer("reader_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    reason: text("reason").notNull(),
    status: text("status", { enum: ["open", "approved", "rejected"] })
      .notNull()
      .default("open"),
    deciderId: integer("decider_id").references(() => users.id, { onDelete: "set null" }),
    decidedAt: timestamp("decided_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("unlock_refund_requests_open_idx")
      .on(table.unlockId)
      .where(sql`${table.status} = 'open'`),
    index("unlock_refund_requests_writing_idx").on(table.writingId, table.status),
    index("unlock_refund_requests_reader_idx").on(table.readerId, table.createdAt),
    check("unlock_refund_requests_status_check", sql`${table.status} in ('open', 'approved', 'rejected')`),
  ],
);

/**
 * A red packet on a writing: its author's sinecoin held (`system:red_packet:<id>`) until readers
 * claim the shares or it expires and the rest returns; the remaining amount and shares never go
 * below zero, and each remaining share is worth at least one sinecoin.
 */
export const redPackets = pgTable(
  "red_packets",
  {
    id: serial("id").primaryKey(),
    /** Null once its writing was deleted (what was left went back to the funder first). */
    writingId: integer("writing_id").references(() => writings.id, { onDelete: "set null" }),
    funderId: integer("funder_id")
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    total: integer("total").notNull(),
    shares: integer("shares").notNull(),
    split: text("split", { enum: ["random", "equal"] }).notNull(),
    remainingAmount: integer("remaining_amount").notNull(),
    remainingShares: integer("remaining_shares").notNull(),
    /** `open` until emptied, expired or withdrawn (its writing deleted); a hold resolves exactly once. */
    status: text("status", { enum: ["open", "emptied", "expired", "withdrawn"] })
      .notNull()
      .default("open"),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("red_packets_writing_idx").on(table.writingId),
    index("red_packets_open_idx")
      .on(table.expiresAt)
      .where(sql`${table.status} = 'open'`),
    check(
      "red_packets_amounts_check",
      sql`${table.shares} > 0 and ${table.total} >= ${table.shares} and ${table.remainingShares} >= 0 and ${table.remainingAmount} >= ${table.remainingShares}`,
    ),
  ],
);

export const redPacketClaims = pgTable(
  "red_packet_claims",
  {
    redPacketId: integer("red_packet_id")
      .notNull()
      .references(() => redPackets.id, { onDelete: "restrict" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    amount: integer("amount").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.redPacketId, table.userId] }),
    check("red_packet_claims_amount_check", sql`${table.amount} > 0`),
  ],
);
