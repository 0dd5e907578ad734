ALTER TABLE "events" ALTER COLUMN "subject_id" SET DATA TYPE integer USING "subject_id"::integer;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "recipient_ids" integer[] DEFAULT '{}'::integer[] NOT NULL;--> statement-breakpoint
CREATE INDEX "events_recipients_idx" ON "events" USING gin ("recipient_ids");