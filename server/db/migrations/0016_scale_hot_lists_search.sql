-- Scale (issue 19): a stored Hot score, list indexes read as ranges, trigram search on entries, the activity index.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
-- An entry's aliases as one lower-cased text an index may use (array_to_string itself is only stable).
CREATE OR REPLACE FUNCTION entry_aliases_text(aliases text[]) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT lower(array_to_string(aliases, chr(10))) $$;--> statement-breakpoint
-- The Hot ranking (features/writings/queries.ts): views count 1, comments 10 (likes 5 once they
-- exist), over the age in hours plus 2 raised to 1.5, at the instant `reference`.
CREATE OR REPLACE FUNCTION writing_hot_score(views integer, comments integer, published timestamptz, reference timestamptz) RETURNS double precision
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT (views + 10 * comments + 1)::float8 / power(greatest(extract(epoch from (reference - published)) / 3600.0, 0) + 2, 1.5) $$;--> statement-breakpoint
CREATE TABLE "hot_clock" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"reference_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "hot_clock_one_row" CHECK ("hot_clock"."id" = 1)
);
--> statement-breakpoint
INSERT INTO "hot_clock" ("id") VALUES (1);--> statement-breakpoint
ALTER TABLE "writings" ADD COLUMN "comment_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "writings" ADD COLUMN "hot_score" double precision DEFAULT 0 NOT NULL;--> statement-breakpoint
-- A writing's score follows its views, comments and publication time, computed for the clock's instant.
CREATE OR REPLACE FUNCTION writings_set_hot_score() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  NEW.hot_score := writing_hot_score(NEW.views, NEW.comment_count, NEW.published_at,
    coalesce((SELECT reference_at FROM hot_clock WHERE id = 1), now()));
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER writings_hot_score BEFORE INSERT OR UPDATE OF views, comment_count, published_at ON writings
  FOR EACH ROW EXECUTE FUNCTION writings_set_hot_score();--> statement-breakpoint
UPDATE writings SET comment_count = counted.comments
  FROM (SELECT subject_id, count(*)::integer AS comments FROM comments
        WHERE subject_type = 'writing' AND deleted_at IS NULL GROUP BY subject_id) AS counted
  WHERE counted.subject_id = writings.id;--> statement-breakpoint
UPDATE writings SET hot_score = writing_hot_score(views, comment_count, published_at, (SELECT reference_at FROM hot_clock WHERE id = 1));--> statement-breakpoint
CREATE INDEX "events_actor_verb_time_idx" ON "events" USING btree ("actor_id","verb","created_at");--> statement-breakpoint
CREATE INDEX "writings_hot_idx" ON "writings" USING btree ("hot_score","id") WHERE "writings"."translation_of" is null;--> statement-breakpoint
CREATE INDEX "writings_circle_list_idx" ON "writings" USING btree ("circle_id","published_at","id") WHERE "writings"."translation_of" is null;--> statement-breakpoint
CREATE INDEX "writings_author_list_idx" ON "writings" USING btree ("author_id","published_at","id") WHERE "writings"."translation_of" is null;--> statement-breakpoint
CREATE INDEX "encyclopedia_entries_name_trgm_idx" ON "encyclopedia_entries" USING gin (lower("name") gin_trgm_ops) WITH (fastupdate=off);--> statement-breakpoint
CREATE INDEX "encyclopedia_entries_aliases_trgm_idx" ON "encyclopedia_entries" USING gin (entry_aliases_text("aliases") gin_trgm_ops) WITH (fastupdate=off);
