ALTER TABLE "encyclopedia_entries" ADD COLUMN "translation_of" integer;--> statement-breakpoint
ALTER TABLE "encyclopedia_entries" ADD CONSTRAINT "encyclopedia_entries_translation_of_encyclopedia_entries_id_fk" FOREIGN KEY ("translation_of") REFERENCES "public"."encyclopedia_entries"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "encyclopedia_entries_circle_updated_idx" ON "encyclopedia_entries" USING btree ("circle_id","updated_at");--> statement-breakpoint
CREATE INDEX "encyclopedia_entries_translation_idx" ON "encyclopedia_entries" USING btree ("translation_of");--> statement-breakpoint
CREATE UNIQUE INDEX "encyclopedia_entries_group_language_idx" ON "encyclopedia_entries" USING btree (coalesce("translation_of", "id"),"language");--> statement-breakpoint
CREATE INDEX "entry_views_day_idx" ON "entry_views" USING btree ("day","entry_id");