CREATE TABLE "cashouts" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"amount" integer NOT NULL,
	"fee" integer NOT NULL,
	"gross_fen" integer NOT NULL,
	"tax_withheld_fen" integer NOT NULL,
	"net_fen" integer NOT NULL,
	"fen_per_sinecoin" integer NOT NULL,
	"provider" text NOT NULL,
	"payee_kind" text NOT NULL,
	"payee_account" text NOT NULL,
	"payee_name" text NOT NULL,
	"status" text DEFAULT 'requested' NOT NULL,
	"reason" text,
	"decider_id" integer,
	"decided_at" timestamp with time zone,
	"sent_at" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"provider_ref" text,
	"finished_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "cashouts_amounts_check" CHECK ("cashouts"."amount" > 0 and "cashouts"."fee" >= 0 and "cashouts"."fee" < "cashouts"."amount" and "cashouts"."tax_withheld_fen" >= 0 and "cashouts"."net_fen" >= 0),
	CONSTRAINT "cashouts_status_check" CHECK ("cashouts"."status" in ('requested', 'approved', 'rejected', 'cancelled', 'paid', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "sandbox_payouts" (
	"cashout_id" text PRIMARY KEY NOT NULL,
	"status" text NOT NULL,
	"reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sandbox_payouts_status_check" CHECK ("sandbox_payouts"."status" in ('paid', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "monetization_applications" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"status" text NOT NULL,
	"reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_at" timestamp with time zone,
	CONSTRAINT "monetization_applications_status_check" CHECK ("monetization_applications"."status" in ('pending', 'approved', 'rejected'))
);
--> statement-breakpoint
ALTER TABLE "ledger_transactions" DROP CONSTRAINT "ledger_transactions_kind_check";--> statement-breakpoint
ALTER TABLE "payout_accounts" ADD COLUMN "provider" text DEFAULT 'alipay' NOT NULL;--> statement-breakpoint
ALTER TABLE "cashouts" ADD CONSTRAINT "cashouts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cashouts" ADD CONSTRAINT "cashouts_decider_id_users_id_fk" FOREIGN KEY ("decider_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox_payouts" ADD CONSTRAINT "sandbox_payouts_cashout_id_cashouts_id_fk" FOREIGN KEY ("cashout_id") REFERENCES "public"."cashouts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monetization_applications" ADD CONSTRAINT "monetization_applications_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "cashouts_user_idx" ON "cashouts" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "cashouts_status_idx" ON "cashouts" USING btree ("status","created_at");--> statement-breakpoint
ALTER TABLE "ledger_transactions" ADD CONSTRAINT "ledger_transactions_kind_check" CHECK (kind in ('checkin_reward', 'exchange', 'topup', 'tip', 'unlock', 'unlock_refund', 'red_packet_fund', 'red_packet_claim', 'red_packet_return', 'shop_purchase', 'grant', 'settlement', 'cashout', 'cashout_request', 'cashout_return', 'trade_escrow', 'trade_reward', 'trade_refund', 'mission_reward', 'mission_income'));--> statement-breakpoint
ALTER TABLE "payout_accounts" ADD CONSTRAINT "payout_accounts_provider_check" CHECK ("payout_accounts"."provider" in ('alipay', 'wechat'));