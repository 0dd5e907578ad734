CREATE TABLE "captcha_challenges" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"target_x" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"answered_at" timestamp with time zone,
	"solved_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "captcha_challenges_expires_idx" ON "captcha_challenges" USING btree ("expires_at");