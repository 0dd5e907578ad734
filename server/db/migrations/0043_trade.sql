CREATE TABLE "trade_missions" (
	"id" serial PRIMARY KEY NOT NULL,
	"circle_id" integer NOT NULL,
	"poster_id" integer NOT NULL,
	"title" text NOT NULL,
	"description" text NOT NULL,
	"reward" integer NOT NULL,
	"slots" integer NOT NULL,
	"open_slots" integer NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"deadline" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "trade_missions_amounts_check" CHECK ("trade_missions"."reward" > 0 and "trade_missions"."slots" > 0 and "trade_missions"."open_slots" >= 0 and "trade_missions"."open_slots" <= "trade_missions"."slots")
);
--> statement-breakpoint
CREATE TABLE "trade_progress" (
	"id" serial PRIMARY KEY NOT NULL,
	"mission_id" integer NOT NULL,
	"worker_id" integer NOT NULL,
	"status" text DEFAULT 'accepted' NOT NULL,
	"content" text,
	"reason" text,
	"auto_approved" integer DEFAULT 0 NOT NULL,
	"disputed_at" timestamp with time zone,
	"submitted_at" timestamp with time zone,
	"reviewed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ledger_transactions" DROP CONSTRAINT "ledger_transactions_kind_check";--> statement-breakpoint
ALTER TABLE "trade_missions" ADD CONSTRAINT "trade_missions_circle_id_circles_id_fk" FOREIGN KEY ("circle_id") REFERENCES "public"."circles"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trade_missions" ADD CONSTRAINT "trade_missions_poster_id_users_id_fk" FOREIGN KEY ("poster_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trade_progress" ADD CONSTRAINT "trade_progress_mission_id_trade_missions_id_fk" FOREIGN KEY ("mission_id") REFERENCES "public"."trade_missions"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trade_progress" ADD CONSTRAINT "trade_progress_worker_id_users_id_fk" FOREIGN KEY ("worker_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "trade_missions_list_idx" ON "trade_missions" USING btree ("status","id");--> statement-breakpoint
CREATE INDEX "trade_missions_poster_idx" ON "trade_missions" USING btree ("poster_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "trade_progress_worker_idx" ON "trade_progress" USING btree ("mission_id","worker_id");--> statement-breakpoint
CREATE INDEX "trade_progress_by_worker_idx" ON "trade_progress" USING btree ("worker_id","id");--> statement-breakpoint
CREATE INDEX "trade_progress_submitted_idx" ON "trade_progress" USING btree ("submitted_at") WHERE "trade_progress"."status" = 'submitted';--> statement-breakpoint
ALTER TABLE "ledger_transactions" ADD CONSTRAINT "ledger_transactions_kind_check" CHECK (kind in ('checkin_reward', 'exchange', 'topup', 'tip', 'unlock', 'unlock_refund', 'red_packet_fund', 'red_packet_claim', 'red_packet_return', 'shop_purchase', 'grant', 'cashout', 'trade_escrow', 'trade_reward', 'trade_refund'));