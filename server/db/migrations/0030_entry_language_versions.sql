CREATE TABLE "entry_citations" (
	"entry_id" integer NOT NULL,
	"source_type" text NOT NULL,
	"source_id" integer NOT NULL,
	CONSTRAINT "entry_citations_entry_id_source_type_source_id_pk" PRIMARY KEY("entry_id","source_type","source_id"),
	CONSTRAINT "entry_citations_source_type_check" CHECK ("entry_citations"."source_type" in ('writing', 'answer', 'entry'))
);
--> statement-breakpoint
ALTER TABLE "encyclopedia_entries" ADD COLUMN "photos" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "encyclopedia_entries" ADD COLUMN "translation_of" integer;--> statement-breakpoint
ALTER TABLE "entry_citations" ADD CONSTRAINT "entry_citations_entry_id_encyclopedia_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."encyclopedia_entries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "entry_citations_source_idx" ON "entry_citations" USING btree ("source_type","source_id");--> statement-breakpoint
ALTER TABLE "encyclopedia_entries" ADD CONSTRAINT "encyclopedia_entries_translation_of_encyclopedia_entries_id_fk" FOREIGN KEY ("translation_of") REFERENCES "public"."encyclopedia_entries"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "encyclopedia_entries_circle_updated_idx" ON "encyclopedia_entries" USING btree ("circle_id","updated_at");--> statement-breakpoint
CREATE INDEX "encyclopedia_entries_translation_idx" ON "encyclopedia_entries" USING btree ("translation_of");--> statement-breakpoint
CREATE UNIQUE INDEX "encyclopedia_entries_group_language_idx" ON "encyclopedia_entries" USING btree (coalesce("translation_of", "id"),"language");--> statement-breakpoint
CREATE INDEX "entry_views_day_idx" ON "entry_views" USING btree ("day","entry_id");