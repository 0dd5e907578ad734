CREATE TABLE "known_login_ips" (
	"user_id" integer NOT NULL,
	"ip" text NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "login_failures" (
	"key" text PRIMARY KEY NOT NULL,
	"failures" integer DEFAULT 0 NOT NULL,
	"window_started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_failure_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"persistent" boolean NOT NULL,
	"ip" text DEFAULT '' NOT NULL,
	"user_agent" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" serial PRIMARY KEY NOT NULL,
	"username" text NOT NULL,
	"nickname" text NOT NULL,
	"email" text NOT NULL,
	"password_hash" text NOT NULL,
	"gender" text NOT NULL,
	"birthday" date NOT NULL,
	"country" text NOT NULL,
	"user_type" text DEFAULT 'Registered users' NOT NULL,
	"avatar" text,
	"self_description" text DEFAULT '' NOT NULL,
	"intelligence_score" integer DEFAULT 0 NOT NULL,
	"gold" integer DEFAULT 0 NOT NULL,
	"sinecoin" integer DEFAULT 0 NOT NULL,
	"school" text DEFAULT '' NOT NULL,
	"profession" text DEFAULT '' NOT NULL,
	"hogwarts_school" text DEFAULT '' NOT NULL,
	"sinecoin_total_profit" integer DEFAULT 0 NOT NULL,
	"sinecoin_total_cashout" integer DEFAULT 0 NOT NULL,
	"cashoutable_sinecoin_profit" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "users_gender_check" CHECK ("users"."gender" in ('male', 'female', 'secret'))
);
--> statement-breakpoint
CREATE TABLE "circles" (
	"id" serial PRIMARY KEY NOT NULL,
	"slug" text,
	"parent_id" integer,
	"name_zh" text NOT NULL,
	"name_en" text NOT NULL,
	"description_zh" text DEFAULT '' NOT NULL,
	"description_en" text DEFAULT '' NOT NULL,
	"logo" text,
	"visibility" text DEFAULT 'within_circle' NOT NULL,
	"default_language" text DEFAULT 'zh-CN' NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "circles_not_own_parent" CHECK ("circles"."parent_id" is null or "circles"."parent_id" <> "circles"."id")
);
--> statement-breakpoint
CREATE TABLE "unread_counters" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"answer_count" integer DEFAULT 0 NOT NULL,
	"unread_comment_count" integer DEFAULT 0 NOT NULL,
	"unread_replies" integer DEFAULT 0 NOT NULL,
	"unread_announcement_count" integer DEFAULT 0 NOT NULL,
	"unread_sysmeg_count" integer DEFAULT 0 NOT NULL,
	"unread_like_count" integer DEFAULT 0 NOT NULL,
	"unread_favorite_count" integer DEFAULT 0 NOT NULL,
	"unread_follow_count" integer DEFAULT 0 NOT NULL,
	"unread_private_chat" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "known_login_ips" ADD CONSTRAINT "known_login_ips_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "circles" ADD CONSTRAINT "circles_parent_id_circles_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."circles"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "unread_counters" ADD CONSTRAINT "unread_counters_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "known_login_ips_user_ip_idx" ON "known_login_ips" USING btree ("user_id","ip");--> statement-breakpoint
CREATE INDEX "sessions_user_idx" ON "sessions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "sessions_expires_idx" ON "sessions" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "users_username_lower_idx" ON "users" USING btree (lower("username"));--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_lower_idx" ON "users" USING btree (lower("email"));--> statement-breakpoint
CREATE UNIQUE INDEX "circles_slug_idx" ON "circles" USING btree ("slug");--> statement-breakpoint
CREATE INDEX "circles_parent_idx" ON "circles" USING btree ("parent_id");