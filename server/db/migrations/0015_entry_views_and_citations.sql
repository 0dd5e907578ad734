CREATE TABLE "entry_views" (
	"entry_id" integer NOT NULL,
	"visitor" text NOT NULL,
	"day" date NOT NULL,
	CONSTRAINT "entry_views_entry_id_visitor_day_pk" PRIMARY KEY("entry_id","visitor","day")
);
--> statement-breakpoint
ALTER TABLE "entry_views" ADD CONSTRAINT "entry_views_entry_id_encyclopedia_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."encyclopedia_entries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Cite counts were never raised: count the writings that name each entry among their related entries.
UPDATE "encyclopedia_entries" SET "cite_count" = (SELECT count(*)::integer FROM "writings" w WHERE "encyclopedia_entries"."id" = ANY(w."related_entry_ids"));
