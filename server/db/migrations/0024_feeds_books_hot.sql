ALTER TABLE "books" ADD COLUMN "comment_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "books" ADD COLUMN "hot_score" double precision DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "book_chapters_time_idx" ON "book_chapters" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "book_chapters_book_time_idx" ON "book_chapters" USING btree ("book_id","created_at","id");--> statement-breakpoint
CREATE INDEX "books_time_idx" ON "books" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "books_author_time_idx" ON "books" USING btree ("author_id","created_at","id");--> statement-breakpoint
CREATE INDEX "books_circle_time_idx" ON "books" USING btree ("circle_id","created_at","id");--> statement-breakpoint
CREATE INDEX "books_hot_idx" ON "books" USING btree ("hot_score","id");--> statement-breakpoint
-- hand-written: one Hot score for every kind (docs/features/interactions.md, "Hot"). Views 1, likes 5,
-- favourites 8, comments 10, shares 3, minus 5 per dislike (never below zero), plus 1, over
-- (age in hours + 2)^1.5, computed for the instant in hot_clock. Writings' and books' triggers call it.
CREATE OR REPLACE FUNCTION engagement_hot_score(views integer, comments integer, likes integer, dislikes integer, favorites integer, shares integer, published timestamptz, reference timestamptz) RETURNS double precision
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT (greatest(views + 5 * likes + 8 * favorites + 10 * comments + 3 * shares - 5 * dislikes, 0) + 1)::float8
    / power(greatest(extract(epoch from (reference - published)) / 3600.0, 0) + 2, 1.5) $$;--> statement-breakpoint
-- hand-written: writings score with shares too (the trigger writings_hot_score stays; its function changes).
CREATE OR REPLACE FUNCTION writings_set_hot_score() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
DECLARE
  counted record;
BEGIN
  SELECT like_count, dislike_count, favorite_count, share_count INTO counted
    FROM subject_counts WHERE subject_type = 'writing' AND subject_id = NEW.id;
  NEW.hot_score := engagement_hot_score(NEW.views, NEW.comment_count,
    coalesce(counted.like_count, 0), coalesce(counted.dislike_count, 0), coalesce(counted.favorite_count, 0),
    coalesce(counted.share_count, 0),
    NEW.published_at, coalesce((SELECT reference_at FROM hot_clock WHERE id = 1), now()));
  RETURN NEW;
END
$$;--> statement-breakpoint
DROP FUNCTION IF EXISTS writing_engagement_score(integer, integer, integer, integer, integer, timestamptz, timestamptz);--> statement-breakpoint
DROP FUNCTION IF EXISTS writing_hot_score(integer, integer, timestamptz, timestamptz);--> statement-breakpoint
-- hand-written: books get the same score, aged from their last update (a new chapter makes a book new again).
CREATE OR REPLACE FUNCTION books_set_hot_score() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
DECLARE
  counted record;
BEGIN
  SELECT like_count, dislike_count, favorite_count, share_count INTO counted
    FROM subject_counts WHERE subject_type = 'book' AND subject_id = NEW.id;
  NEW.hot_score := engagement_hot_score(NEW.views, NEW.comment_count,
    coalesce(counted.like_count, 0), coalesce(counted.dislike_count, 0), coalesce(counted.favorite_count, 0),
    coalesce(counted.share_count, 0),
    NEW.updated_at, coalesce((SELECT reference_at FROM hot_clock WHERE id = 1), now()));
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER books_hot_score BEFORE INSERT OR UPDATE OF views, comment_count, updated_at ON books
  FOR EACH ROW EXECUTE FUNCTION books_set_hot_score();--> statement-breakpoint
UPDATE writings SET comment_count = comment_count;--> statement-breakpoint
UPDATE books SET comment_count = comment_count;
