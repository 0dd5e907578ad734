CREATE TABLE "ad_billings" (
	"campaign_id" integer NOT NULL,
	"day" date NOT NULL,
	"billable_units" integer NOT NULL,
	"spend" integer NOT NULL,
	"creators_share" integer NOT NULL,
	"platform_share" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ad_billings_campaign_id_day_pk" PRIMARY KEY("campaign_id","day"),
	CONSTRAINT "ad_billings_amounts_check" CHECK ("ad_billings"."spend" >= 0 and "ad_billings"."creators_share" + "ad_billings"."platform_share" = "ad_billings"."spend")
);
--> statement-breakpoint
CREATE TABLE "ad_campaigns" (
	"id" serial PRIMARY KEY NOT NULL,
	"advertiser_id" integer NOT NULL,
	"title" text NOT NULL,
	"text" text NOT NULL,
	"image_file_id" text NOT NULL,
	"url" text NOT NULL,
	"circle_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"languages" jsonb NOT NULL,
	"pricing_model" text NOT NULL,
	"price" integer NOT NULL,
	"budget" integer NOT NULL,
	"daily_cap" integer NOT NULL,
	"starts_on" date NOT NULL,
	"ends_on" date NOT NULL,
	"status" text DEFAULT 'pending_review' NOT NULL,
	"reject_reason" text,
	"reviewed_at" timestamp with time zone,
	"spent" integer DEFAULT 0 NOT NULL,
	"released" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ad_campaigns_amounts_check" CHECK ("ad_campaigns"."price" > 0 and "ad_campaigns"."budget" > 0 and "ad_campaigns"."daily_cap" > 0 and "ad_campaigns"."spent" >= 0 and "ad_campaigns"."released" >= 0 and "ad_campaigns"."spent" + "ad_campaigns"."released" <= "ad_campaigns"."budget" and "ad_campaigns"."ends_on" >= "ad_campaigns"."starts_on")
);
--> statement-breakpoint
CREATE TABLE "ad_creator_settings" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"enabled" boolean NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ad_daily_counts" (
	"campaign_id" integer NOT NULL,
	"day" date NOT NULL,
	"creator_id" integer DEFAULT 0 NOT NULL,
	"served" integer DEFAULT 0 NOT NULL,
	"viewable" integer DEFAULT 0 NOT NULL,
	"clicks" integer DEFAULT 0 NOT NULL,
	"filtered_viewable" integer DEFAULT 0 NOT NULL,
	"filtered_clicks" integer DEFAULT 0 NOT NULL,
	"filtered_bot" integer DEFAULT 0 NOT NULL,
	"filtered_limit" integer DEFAULT 0 NOT NULL,
	"filtered_self" integer DEFAULT 0 NOT NULL,
	"filtered_no_script" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "ad_daily_counts_campaign_id_day_creator_id_pk" PRIMARY KEY("campaign_id","day","creator_id")
);
--> statement-breakpoint
CREATE TABLE "ad_event_marks" (
	"serve_id" text NOT NULL,
	"type" text NOT NULL,
	"day" date NOT NULL,
	CONSTRAINT "ad_event_marks_serve_id_type_pk" PRIMARY KEY("serve_id","type")
);
--> statement-breakpoint
ALTER TABLE "ledger_transactions" DROP CONSTRAINT "ledger_transactions_kind_check";--> statement-breakpoint
ALTER TABLE "ad_billings" ADD CONSTRAINT "ad_billings_campaign_id_ad_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."ad_campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ad_campaigns" ADD CONSTRAINT "ad_campaigns_advertiser_id_users_id_fk" FOREIGN KEY ("advertiser_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ad_creator_settings" ADD CONSTRAINT "ad_creator_settings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ad_daily_counts" ADD CONSTRAINT "ad_daily_counts_campaign_id_ad_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."ad_campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ad_campaigns_advertiser_idx" ON "ad_campaigns" USING btree ("advertiser_id","id");--> statement-breakpoint
CREATE INDEX "ad_campaigns_status_idx" ON "ad_campaigns" USING btree ("status","id");--> statement-breakpoint
CREATE INDEX "ad_daily_counts_day_idx" ON "ad_daily_counts" USING btree ("day");--> statement-breakpoint
CREATE INDEX "ad_event_marks_day_idx" ON "ad_event_marks" USING btree ("day");--> statement-breakpoint
ALTER TABLE "ledger_transactions" ADD CONSTRAINT "ledger_transactions_kind_check" CHECK (kind in ('checkin_reward', 'exchange', 'topup', 'tip', 'unlock', 'unlock_refund', 'red_packet_fund', 'red_packet_claim', 'red_packet_return', 'shop_purchase', 'grant', 'settlement', 'cashout', 'cashout_request', 'cashout_return', 'trade_escrow', 'trade_reward', 'trade_refund', 'mission_reward', 'mission_income', 'campaign_hold', 'campaign_release', 'ad_payout'));
