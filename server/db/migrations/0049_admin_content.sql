ALTER TABLE "announcements" ADD COLUMN "publish_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "announcements" ADD COLUMN "announced_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "announcements" ADD COLUMN "withdrawn_at" timestamp with time zone;--> statement-breakpoint
-- Announcements written before scheduling existed went out when they were written.
UPDATE "announcements" SET "publish_at" = "created_at", "announced_at" = "created_at";
