CREATE TABLE "unlock_refund_requests" (
	"id" serial PRIMARY KEY NOT NULL,
	"unlock_id" integer NOT NULL,
	"writing_id" integer NOT NULL,
	"reader_id" integer NOT NULL,
	"reason" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"decider_id" integer,
	"decided_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "unlock_refund_requests_status_check" CHECK ("unlock_refund_requests"."status" in ('open', 'approved', 'rejected'))
);
--> statement-breakpoint
ALTER TABLE "red_packets" DROP CONSTRAINT "red_packets_writing_id_writings_id_fk";
--> statement-breakpoint
ALTER TABLE "red_packets" ALTER COLUMN "writing_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "unlock_refund_requests" ADD CONSTRAINT "unlock_refund_requests_unlock_id_writing_unlocks_id_fk" FOREIGN KEY ("unlock_id") REFERENCES "public"."writing_unlocks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "unlock_refund_requests" ADD CONSTRAINT "unlock_refund_requests_writing_id_writings_id_fk" FOREIGN KEY ("writing_id") REFERENCES "public"."writings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "unlock_refund_requests" ADD CONSTRAINT "unlock_refund_requests_reader_id_users_id_fk" FOREIGN KEY ("reader_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "unlock_refund_requests" ADD CONSTRAINT "unlock_refund_requests_decider_id_users_id_fk" FOREIGN KEY ("decider_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "unlock_refund_requests_open_idx" ON "unlock_refund_requests" USING btree ("unlock_id") WHERE "unlock_refund_requests"."status" = 'open';--> statement-breakpoint
CREATE INDEX "unlock_refund_requests_writing_idx" ON "unlock_refund_requests" USING btree ("writing_id","status");--> statement-breakpoint
CREATE INDEX "unlock_refund_requests_reader_idx" ON "unlock_refund_requests" USING btree ("reader_id","created_at");--> statement-breakpoint
ALTER TABLE "red_packets" ADD CONSTRAINT "red_packets_writing_id_writings_id_fk" FOREIGN KEY ("writing_id") REFERENCES "public"."writings"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
-- Kinds outside the closed list (test and benchmark grants) become `grant`; the ledger's rows are
-- otherwise immutable, so the guard is lifted for this one correction only.
ALTER TABLE "ledger_transactions" DISABLE TRIGGER ledger_transactions_immutable;--> statement-breakpoint
UPDATE "ledger_transactions" SET "kind" = 'grant' WHERE "kind" NOT IN ('checkin_reward', 'exchange', 'topup', 'tip', 'unlock', 'unlock_refund', 'red_packet_fund', 'red_packet_claim', 'red_packet_return', 'shop_purchase', 'grant', 'cashout');--> statement-breakpoint
ALTER TABLE "ledger_transactions" ENABLE TRIGGER ledger_transactions_immutable;--> statement-breakpoint
ALTER TABLE "ledger_transactions" ADD CONSTRAINT "ledger_transactions_kind_check" CHECK (kind in ('checkin_reward', 'exchange', 'topup', 'tip', 'unlock', 'unlock_refund', 'red_packet_fund', 'red_packet_claim', 'red_packet_return', 'shop_purchase', 'grant', 'cashout'));--> statement-breakpoint
-- Profit as the kinds now declare it: red-packet shares are no longer profit and refunded unlocks
-- take theirs back (netted per transaction and user, never below zero), as features/ledger/check.ts sums it.
WITH nets AS (
	SELECT a.user_id, t.kind, sum(e.amount) AS sinecoin
	FROM ledger_accounts a
	JOIN ledger_entries e ON e.account_id = a.id
	JOIN ledger_transactions t ON t.id = e.transaction_id
	WHERE a.user_id IS NOT NULL AND a.currency = 'sinecoin'
	GROUP BY a.user_id, t.id, t.kind
), profits AS (
	SELECT user_id, greatest(0, coalesce(sum(sinecoin) FILTER (WHERE sinecoin > 0 AND kind IN ('tip', 'unlock')), 0)
		+ coalesce(sum(sinecoin) FILTER (WHERE sinecoin < 0 AND kind = 'unlock_refund'), 0)) AS profit
	FROM nets GROUP BY user_id
)
UPDATE "users" u SET
	"sinecoin_total_profit" = coalesce(p.profit, 0),
	"cashoutable_sinecoin_profit" = greatest(0, least(u.sinecoin, coalesce(p.profit, 0) - u.sinecoin_total_cashout))
FROM (SELECT id FROM users) ids LEFT JOIN profits p ON p.user_id = ids.id
WHERE u.id = ids.id AND u.sinecoin_total_profit <> coalesce(p.profit, 0);
