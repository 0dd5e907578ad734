CREATE TABLE "search_documents" (
	"type" text NOT NULL,
	"id" integer NOT NULL,
	"circle_id" integer,
	"parent_id" integer,
	"language" text,
	"title" text NOT NULL,
	"path" text NOT NULL,
	"names" text NOT NULL,
	"pinyin" text DEFAULT '' NOT NULL,
	"synonyms" text[] DEFAULT '{}'::text[] NOT NULL,
	"body" text DEFAULT '' NOT NULL,
	"terms" "tsvector" NOT NULL,
	"author_id" integer,
	"published_at" timestamp with time zone NOT NULL,
	"hot_score" double precision DEFAULT 0 NOT NULL,
	CONSTRAINT "search_documents_type_id_pk" PRIMARY KEY("type","id")
);
--> statement-breakpoint
CREATE INDEX "search_documents_terms_idx" ON "search_documents" USING gin ("terms");--> statement-breakpoint
CREATE INDEX "search_documents_names_trgm_idx" ON "search_documents" USING gin ("names" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "search_documents_pinyin_trgm_idx" ON "search_documents" USING gin ("pinyin" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "search_documents_synonyms_idx" ON "search_documents" USING gin ("synonyms");--> statement-breakpoint
CREATE INDEX "search_documents_parent_idx" ON "search_documents" USING btree ("type","parent_id");--> statement-breakpoint
CREATE INDEX "search_documents_time_idx" ON "search_documents" USING btree ("published_at");