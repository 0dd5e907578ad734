CREATE TABLE "ad_free_circles" (
	"circle_id" integer PRIMARY KEY NOT NULL,
	"set_by" integer,
	"set_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ad_campaigns" ADD COLUMN "pending_creative" jsonb;--> statement-breakpoint
ALTER TABLE "ad_campaigns" ADD COLUMN "submitted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "ad_campaigns" ADD COLUMN "revision" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "ad_campaigns" ADD COLUMN "creative_reject_reason" text;--> statement-breakpoint
ALTER TABLE "ad_free_circles" ADD CONSTRAINT "ad_free_circles_circle_id_circles_id_fk" FOREIGN KEY ("circle_id") REFERENCES "public"."circles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ad_free_circles" ADD CONSTRAINT "ad_free_circles_set_by_users_id_fk" FOREIGN KEY ("set_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;
