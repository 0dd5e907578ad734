CREATE TABLE "memberships" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"tier" text NOT NULL,
	"days" integer NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"auto_renew" boolean DEFAULT false NOT NULL,
	"previous_type" text NOT NULL,
	"ended_at" timestamp with time zone,
	CONSTRAINT "memberships_tier_check" CHECK ("memberships"."tier" in ('vip', 'svip')),
	CONSTRAINT "memberships_dates_check" CHECK ("memberships"."ends_at" > "memberships"."starts_at")
);
--> statement-breakpoint
ALTER TABLE "ledger_transactions" DROP CONSTRAINT "ledger_transactions_kind_check";--> statement-breakpoint
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "memberships_due_idx" ON "memberships" USING btree ("ends_at") WHERE "memberships"."ended_at" is null;--> statement-breakpoint
ALTER TABLE "ledger_transactions" ADD CONSTRAINT "ledger_transactions_kind_check" CHECK (kind in ('checkin_reward', 'exchange', 'topup', 'tip', 'unlock', 'unlock_refund', 'red_packet_fund', 'red_packet_claim', 'red_packet_return', 'shop_purchase', 'membership_purchase', 'grant', 'settlement', 'cashout', 'cashout_request', 'cashout_return', 'trade_escrow', 'trade_reward', 'trade_refund', 'mission_reward', 'mission_income', 'campaign_hold', 'campaign_release', 'ad_payout'));
