CREATE TABLE "entry_revision_contents" (
	"hash" text PRIMARY KEY NOT NULL,
	"snapshot" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "entry_revisions" (
	"id" serial PRIMARY KEY NOT NULL,
	"entry_id" integer NOT NULL,
	"number" integer NOT NULL,
	"author_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"summary" text DEFAULT '' NOT NULL,
	"content_hash" text NOT NULL,
	"size" integer NOT NULL,
	"size_delta" integer NOT NULL,
	"language" text NOT NULL,
	"revert_of" integer,
	CONSTRAINT "entry_revisions_summary_length" CHECK (char_length("entry_revisions"."summary") <= 200)
);
--> statement-breakpoint
ALTER TABLE "encyclopedia_entries" ADD COLUMN "protected" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "encyclopedia_entries" ADD COLUMN "references" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "encyclopedia_entries" ADD COLUMN "citation" jsonb DEFAULT '{"format":"numeric","bracket":"square","cite_type":"multiple","position":"superscript"}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "encyclopedia_entries" ADD COLUMN "revision_id" integer;--> statement-breakpoint
ALTER TABLE "entry_revisions" ADD CONSTRAINT "entry_revisions_entry_id_encyclopedia_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."encyclopedia_entries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "entry_revisions" ADD CONSTRAINT "entry_revisions_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "entry_revisions" ADD CONSTRAINT "entry_revisions_content_hash_entry_revision_contents_hash_fk" FOREIGN KEY ("content_hash") REFERENCES "public"."entry_revision_contents"("hash") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "entry_revisions_number_idx" ON "entry_revisions" USING btree ("entry_id","number");--> statement-breakpoint
CREATE INDEX "entry_revisions_author_idx" ON "entry_revisions" USING btree ("author_id");--> statement-breakpoint
CREATE INDEX "entry_revisions_content_idx" ON "entry_revisions" USING btree ("content_hash");--> statement-breakpoint
-- hand-written: every entry written before revisions existed gets its first revision (its creator, its creation time, its current content).
INSERT INTO "entry_revision_contents" ("hash", "snapshot")
SELECT DISTINCT encode(sha256(convert_to(s.snapshot::text, 'UTF8')), 'hex'), s.snapshot
FROM (
	SELECT jsonb_build_object('name', e.name, 'aliases', to_jsonb(e.aliases), 'disambiguation', e.disambiguation, 'parent_id', e.parent_id,
		'content', e.description, 'references', e."references", 'citation', e.citation) AS snapshot
	FROM "encyclopedia_entries" e
) s
ON CONFLICT DO NOTHING;--> statement-breakpoint
-- hand-written: the revisions themselves, then the entries point at them.
INSERT INTO "entry_revisions" ("entry_id", "number", "author_id", "created_at", "summary", "content_hash", "size", "size_delta", "language")
SELECT e.id, 1, e.creator_id, e.created_at, '',
	encode(sha256(convert_to(jsonb_build_object('name', e.name, 'aliases', to_jsonb(e.aliases), 'disambiguation', e.disambiguation, 'parent_id', e.parent_id,
		'content', e.description, 'references', e."references", 'citation', e.citation)::text, 'UTF8')), 'hex'),
	char_length(e.description), char_length(e.description), e.language
FROM "encyclopedia_entries" e;--> statement-breakpoint
-- hand-written: an entry's current revision and its edit count (its revisions).
UPDATE "encyclopedia_entries" e SET "revision_id" = r.id, "edit_count" = 1 FROM "entry_revisions" r WHERE r.entry_id = e.id;
