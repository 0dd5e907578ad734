ALTER TABLE "ledger_accounts" DROP CONSTRAINT "ledger_accounts_currency_check";--> statement-breakpoint
ALTER TABLE "ledger_transactions" DROP CONSTRAINT "ledger_transactions_kind_check";--> statement-breakpoint
ALTER TABLE "ledger_accounts" ADD COLUMN "hold" text DEFAULT 'purse' NOT NULL;--> statement-breakpoint
ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ledger_accounts_hold_check" CHECK ("ledger_accounts"."hold" in ('purse', 'pending', 'available', 'debt', 'payout_hold'));--> statement-breakpoint
ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ledger_accounts_currency_check" CHECK ("ledger_accounts"."currency" in ('gold', 'sinecoin', 'profit'));--> statement-breakpoint
ALTER TABLE "ledger_transactions" ADD CONSTRAINT "ledger_transactions_kind_check" CHECK (kind in ('checkin_reward', 'exchange', 'topup', 'tip', 'unlock', 'unlock_refund', 'red_packet_fund', 'red_packet_claim', 'red_packet_return', 'shop_purchase', 'grant', 'settlement', 'cashout', 'trade_escrow', 'trade_reward', 'trade_refund'));--> statement-breakpoint
-- Income counted before settlement existed is treated as settled: each user's profit not yet paid
-- out opens their `available` hold, so what was cashable stays cashable.
INSERT INTO "ledger_accounts" ("key", "user_id", "currency", "hold")
SELECT 'system:income:profit', NULL, 'profit', 'purse'
WHERE EXISTS (SELECT 1 FROM "users" WHERE "sinecoin_total_profit" > "sinecoin_total_cashout")
ON CONFLICT ("key") DO NOTHING;--> statement-breakpoint
INSERT INTO "ledger_accounts" ("key", "user_id", "currency", "hold")
SELECT 'user:' || "id" || ':profit:available', "id", 'profit', 'available' FROM "users" WHERE "sinecoin_total_profit" > "sinecoin_total_cashout"
ON CONFLICT ("key") DO NOTHING;--> statement-breakpoint
INSERT INTO "ledger_transactions" ("idempotency_key", "kind", "data")
SELECT 'settlement:opening:' || "id", 'settlement', jsonb_build_object('cutoff', 'opening') FROM "users" WHERE "sinecoin_total_profit" > "sinecoin_total_cashout"
ON CONFLICT DO NOTHING;--> statement-breakpoint
INSERT INTO "ledger_entries" ("transaction_id", "account_id", "amount")
SELECT t."id", a."id", u."sinecoin_total_profit" - u."sinecoin_total_cashout"
FROM "users" u
JOIN "ledger_transactions" t ON t."idempotency_key" = 'settlement:opening:' || u."id"
JOIN "ledger_accounts" a ON a."key" = 'user:' || u."id" || ':profit:available'
WHERE u."sinecoin_total_profit" > u."sinecoin_total_cashout";--> statement-breakpoint
INSERT INTO "ledger_entries" ("transaction_id", "account_id", "amount")
SELECT t."id", a."id", u."sinecoin_total_cashout" - u."sinecoin_total_profit"
FROM "users" u
JOIN "ledger_transactions" t ON t."idempotency_key" = 'settlement:opening:' || u."id"
JOIN "ledger_accounts" a ON a."key" = 'system:income:profit'
WHERE u."sinecoin_total_profit" > u."sinecoin_total_cashout";
