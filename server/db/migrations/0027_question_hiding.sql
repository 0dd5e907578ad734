ALTER TABLE "answers" ADD COLUMN "hidden_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "questions" ADD COLUMN "hidden_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "answers_time_idx" ON "answers" USING btree ("published_at","id");--> statement-breakpoint
CREATE INDEX "questions_time_idx" ON "questions" USING btree ("published_at","id");--> statement-breakpoint
CREATE INDEX "questions_hot_idx" ON "questions" USING btree ("hot_score","id");