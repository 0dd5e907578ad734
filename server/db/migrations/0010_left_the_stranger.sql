CREATE TABLE "encyclopedia_entries" (
	"id" serial PRIMARY KEY NOT NULL,
	"circle_id" integer NOT NULL,
	"name" text NOT NULL,
	"aliases" text[] DEFAULT '{}'::text[] NOT NULL,
	"disambiguation" text,
	"parent_id" integer,
	"description" text DEFAULT '' NOT NULL,
	"description_html" text DEFAULT '' NOT NULL,
	"language" text NOT NULL,
	"creator_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"edit_count" integer DEFAULT 0 NOT NULL,
	"views" integer DEFAULT 0 NOT NULL,
	"cite_count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "encyclopedia_entries_name_length" CHECK (char_length("encyclopedia_entries"."name") between 1 and 100),
	CONSTRAINT "encyclopedia_entries_disambiguation_length" CHECK ("encyclopedia_entries"."disambiguation" is null or char_length("encyclopedia_entries"."disambiguation") <= 100),
	CONSTRAINT "encyclopedia_entries_language_check" CHECK ("encyclopedia_entries"."language" in ('zh-CN', 'en')),
	CONSTRAINT "encyclopedia_entries_counts_check" CHECK ("encyclopedia_entries"."edit_count" >= 0 and "encyclopedia_entries"."views" >= 0 and "encyclopedia_entries"."cite_count" >= 0)
);
--> statement-breakpoint
ALTER TABLE "encyclopedia_entries" ADD CONSTRAINT "encyclopedia_entries_circle_id_circles_id_fk" FOREIGN KEY ("circle_id") REFERENCES "public"."circles"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "encyclopedia_entries" ADD CONSTRAINT "encyclopedia_entries_parent_id_encyclopedia_entries_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."encyclopedia_entries"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "encyclopedia_entries" ADD CONSTRAINT "encyclopedia_entries_creator_id_users_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "encyclopedia_entries_circle_idx" ON "encyclopedia_entries" USING btree ("circle_id","created_at");--> statement-breakpoint
CREATE INDEX "encyclopedia_entries_name_idx" ON "encyclopedia_entries" USING btree (lower("name") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "encyclopedia_entries_parent_idx" ON "encyclopedia_entries" USING btree ("parent_id");