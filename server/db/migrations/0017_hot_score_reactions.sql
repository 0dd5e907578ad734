-- Hot (issue "Interactions"): one time-decayed score over views, likes, dislikes, favourites and
-- comments. Likes count 5, favourites 8, comments 10, views 1; dislikes take 5 away (never below
-- zero): the dislike count is private, but it lowers the rank. Over the age in hours plus 2, raised to 1.5.
CREATE OR REPLACE FUNCTION writing_engagement_score(views integer, comments integer, likes integer, dislikes integer, favorites integer, published timestamptz, reference timestamptz) RETURNS double precision
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT (greatest(views + 5 * likes + 8 * favorites + 10 * comments - 5 * dislikes, 0) + 1)::float8
    / power(greatest(extract(epoch from (reference - published)) / 3600.0, 0) + 2, 1.5) $$;--> statement-breakpoint
-- The trigger reads the writing's interaction counters (subject_counts) beside its own columns.
CREATE OR REPLACE FUNCTION writings_set_hot_score() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
DECLARE
  counted record;
BEGIN
  SELECT like_count, dislike_count, favorite_count INTO counted
    FROM subject_counts WHERE subject_type = 'writing' AND subject_id = NEW.id;
  NEW.hot_score := writing_engagement_score(NEW.views, NEW.comment_count,
    coalesce(counted.like_count, 0), coalesce(counted.dislike_count, 0), coalesce(counted.favorite_count, 0),
    NEW.published_at, coalesce((SELECT reference_at FROM hot_clock WHERE id = 1), now()));
  RETURN NEW;
END
$$;--> statement-breakpoint
UPDATE writings SET comment_count = comment_count;
