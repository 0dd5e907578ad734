CREATE TABLE "mission_grants" (
	"id" serial PRIMARY KEY NOT NULL,
	"mission_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"period_start" timestamp with time zone NOT NULL,
	"period_end" timestamp with time zone NOT NULL,
	"progress" integer NOT NULL,
	"status" text DEFAULT 'completed' NOT NULL,
	"claimable_until" timestamp with time zone NOT NULL,
	"claimed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "mission_grants_status_check" CHECK ("mission_grants"."status" in ('completed', 'claimed', 'expired'))
);
--> statement-breakpoint
CREATE TABLE "missions" (
	"id" serial PRIMARY KEY NOT NULL,
	"key" text NOT NULL,
	"scope" text NOT NULL,
	"metric" text NOT NULL,
	"target" integer NOT NULL,
	"reward_currency" text NOT NULL,
	"reward_amount" integer NOT NULL,
	"title_zh" text NOT NULL,
	"title_en" text NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "missions_scope_check" CHECK ("missions"."scope" in ('daily', 'weekly', 'creator')),
	CONSTRAINT "missions_reward_check" CHECK ("missions"."target" > 0 and "missions"."reward_amount" > 0 and "missions"."reward_currency" in ('gold', 'sinecoin')
        and ("missions"."scope" = 'creator') = ("missions"."reward_currency" = 'sinecoin'))
);
--> statement-breakpoint
ALTER TABLE "trade_progress" ADD COLUMN "dispute_decision" text;--> statement-breakpoint
ALTER TABLE "trade_progress" ADD COLUMN "dispute_note" text;--> statement-breakpoint
ALTER TABLE "trade_progress" ADD COLUMN "dispute_decided_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "trade_progress" ADD COLUMN "dispute_decider_id" integer;--> statement-breakpoint
ALTER TABLE "mission_grants" ADD CONSTRAINT "mission_grants_mission_id_missions_id_fk" FOREIGN KEY ("mission_id") REFERENCES "public"."missions"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mission_grants" ADD CONSTRAINT "mission_grants_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "mission_grants_period_idx" ON "mission_grants" USING btree ("mission_id","user_id","period_start");--> statement-breakpoint
CREATE INDEX "mission_grants_user_idx" ON "mission_grants" USING btree ("user_id","period_start");--> statement-breakpoint
CREATE INDEX "mission_grants_open_idx" ON "mission_grants" USING btree ("claimable_until") WHERE "mission_grants"."status" = 'completed';--> statement-breakpoint
CREATE UNIQUE INDEX "missions_key_idx" ON "missions" USING btree ("key");--> statement-breakpoint
ALTER TABLE "trade_progress" ADD CONSTRAINT "trade_progress_dispute_decider_id_users_id_fk" FOREIGN KEY ("dispute_decider_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "trade_progress_disputes_idx" ON "trade_progress" USING btree ("disputed_at") WHERE "trade_progress"."disputed_at" is not null and "trade_progress"."dispute_decision" is null;--> statement-breakpoint
ALTER TABLE "ledger_transactions" DROP CONSTRAINT "ledger_transactions_kind_check";--> statement-breakpoint
ALTER TABLE "ledger_transactions" ADD CONSTRAINT "ledger_transactions_kind_check" CHECK (kind in ('checkin_reward', 'exchange', 'topup', 'tip', 'unlock', 'unlock_refund', 'red_packet_fund', 'red_packet_claim', 'red_packet_return', 'shop_purchase', 'grant', 'settlement', 'cashout', 'trade_escrow', 'trade_reward', 'trade_refund', 'mission_reward', 'mission_income'));--> statement-breakpoint
INSERT INTO "missions" ("key", "scope", "metric", "target", "reward_currency", "reward_amount", "title_zh", "title_en", "position") VALUES
  ('daily_checkin', 'daily', 'checkins', 1, 'gold', 10, '每日签到', 'Check in today', 1),
  ('daily_publish', 'daily', 'writings_published', 1, 'gold', 20, '发布一篇文章', 'Publish a writing', 2),
  ('daily_answer', 'daily', 'answers_posted', 1, 'gold', 15, '回答一个问题', 'Answer a question', 3),
  ('weekly_answer_accepted', 'weekly', 'answers_accepted', 1, 'gold', 50, '回答被采纳', 'Get an answer accepted', 1),
  ('weekly_likes', 'weekly', 'likers', 10, 'gold', 50, '获得 10 位不同用户的点赞', 'Receive likes from 10 different users', 2),
  ('weekly_entry_edit', 'weekly', 'entry_edits_kept', 1, 'gold', 40, '完成一次保留 24 小时的百科编辑', 'Make an encyclopedia edit that stays for 24 hours', 3),
  ('creator_article_reads', 'creator', 'new_writing_reads', 200, 'sinecoin', 20, '新文章本周获得 200 次有效阅读', '200 valid reads on a new article this week', 1),
  ('creator_answer_accepted', 'creator', 'answers_accepted', 1, 'sinecoin', 5, '回答被提问者采纳', 'An answer accepted by its asker', 2),
  ('creator_unlocks', 'creator', 'piece_unlockers', 5, 'sinecoin', 10, '一篇付费内容被 5 位读者解锁', 'A pay-to-view piece unlocked by 5 readers', 3)
ON CONFLICT ("key") DO NOTHING;
