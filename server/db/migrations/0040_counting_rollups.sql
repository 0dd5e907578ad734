CREATE TABLE "daily_stats" (
	"subject_type" text NOT NULL,
	"subject_id" integer NOT NULL,
	"day" date NOT NULL,
	"author_id" integer,
	"views" integer DEFAULT 0 NOT NULL,
	"reads" integer DEFAULT 0 NOT NULL,
	"filtered_bot" integer DEFAULT 0 NOT NULL,
	"filtered_repeat" integer DEFAULT 0 NOT NULL,
	"likes" integer DEFAULT 0 NOT NULL,
	"dislikes" integer DEFAULT 0 NOT NULL,
	"favorites" integer DEFAULT 0 NOT NULL,
	"comments" integer DEFAULT 0 NOT NULL,
	"shares" integer DEFAULT 0 NOT NULL,
	"followers" integer DEFAULT 0 NOT NULL,
	"income_tips" integer DEFAULT 0 NOT NULL,
	"income_unlocks" integer DEFAULT 0 NOT NULL,
	"income_ads" integer DEFAULT 0 NOT NULL,
	"income_missions" integer DEFAULT 0 NOT NULL,
	"income_rewards" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "daily_stats_subject_type_subject_id_day_pk" PRIMARY KEY("subject_type","subject_id","day")
);
--> statement-breakpoint
CREATE TABLE "subject_views" (
	"subject_type" text NOT NULL,
	"subject_id" integer NOT NULL,
	"visitor" text NOT NULL,
	"day" date NOT NULL,
	"bot" boolean DEFAULT false NOT NULL,
	"hits" integer DEFAULT 1 NOT NULL,
	"read_at" timestamp with time zone,
	CONSTRAINT "subject_views_subject_type_subject_id_visitor_day_pk" PRIMARY KEY("subject_type","subject_id","visitor","day"),
	CONSTRAINT "subject_views_hits_positive" CHECK ("subject_views"."hits" >= 1)
);
--> statement-breakpoint
CREATE INDEX "daily_stats_author_day_idx" ON "daily_stats" USING btree ("author_id","day");--> statement-breakpoint
CREATE INDEX "daily_stats_day_idx" ON "daily_stats" USING btree ("day","subject_type");--> statement-breakpoint
CREATE INDEX "subject_views_day_idx" ON "subject_views" USING btree ("day","subject_type","subject_id");--> statement-breakpoint
-- Who a subject's figures belong to (its author; a user is their own). Kinds without an author answer null.
CREATE OR REPLACE FUNCTION subject_author_id(p_type text, p_id integer) RETURNS integer LANGUAGE sql STABLE AS $$
  SELECT CASE p_type
    WHEN 'user' THEN p_id
    WHEN 'writing' THEN (SELECT author_id FROM writings WHERE id = p_id)
    WHEN 'book' THEN (SELECT author_id FROM books WHERE id = p_id)
    WHEN 'chapter' THEN (SELECT b.author_id FROM book_chapters c JOIN books b ON b.id = c.book_id WHERE c.id = p_id)
    WHEN 'entry' THEN (SELECT creator_id FROM encyclopedia_entries WHERE id = p_id)
    WHEN 'question' THEN (SELECT author_id FROM questions WHERE id = p_id)
    WHEN 'answer' THEN (SELECT author_id FROM answers WHERE id = p_id)
    WHEN 'comment' THEN (SELECT author_id FROM comments WHERE id = p_id)
  END
$$;
--> statement-breakpoint
-- Income by source from a ledger kind: the one mapping (features/metrics/income.ts documents it). A later
-- migration replaces it when ledger kinds become typed events.
CREATE OR REPLACE FUNCTION ledger_income_source(p_kind text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE
    WHEN p_kind = 'tip' THEN 'tips'
    WHEN p_kind IN ('unlock', 'unlock_refund') THEN 'unlocks'
    WHEN p_kind LIKE 'ad\_%' OR p_kind = 'ad' THEN 'ads'
    WHEN p_kind LIKE 'mission\_%' OR p_kind = 'mission' THEN 'missions'
    WHEN p_kind IN ('checkin_reward', 'red_packet_claim') THEN 'rewards'
  END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION shanghai_day(p_at timestamptz) RETURNS date LANGUAGE sql STABLE AS $$
  SELECT (p_at AT TIME ZONE 'Asia/Shanghai')::date
$$;
--> statement-breakpoint
-- Adds to one subject's day; the row (with the subject's author) is made on first use.
CREATE OR REPLACE FUNCTION daily_stats_add(
  p_type text, p_id integer, p_day date,
  p_views integer DEFAULT 0, p_reads integer DEFAULT 0, p_filtered_bot integer DEFAULT 0, p_filtered_repeat integer DEFAULT 0,
  p_likes integer DEFAULT 0, p_dislikes integer DEFAULT 0, p_favorites integer DEFAULT 0, p_comments integer DEFAULT 0,
  p_shares integer DEFAULT 0, p_followers integer DEFAULT 0, p_income_tips integer DEFAULT 0, p_income_unlocks integer DEFAULT 0,
  p_income_ads integer DEFAULT 0, p_income_missions integer DEFAULT 0, p_income_rewards integer DEFAULT 0
) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  UPDATE daily_stats SET
    views = views + p_views, reads = reads + p_reads, filtered_bot = filtered_bot + p_filtered_bot,
    filtered_repeat = filtered_repeat + p_filtered_repeat, likes = likes + p_likes, dislikes = dislikes + p_dislikes,
    favorites = favorites + p_favorites, comments = comments + p_comments, shares = shares + p_shares,
    followers = followers + p_followers, income_tips = income_tips + p_income_tips,
    income_unlocks = income_unlocks + p_income_unlocks, income_ads = income_ads + p_income_ads,
    income_missions = income_missions + p_income_missions, income_rewards = income_rewards + p_income_rewards
  WHERE subject_type = p_type AND subject_id = p_id AND day = p_day;
  IF FOUND THEN RETURN; END IF;
  INSERT INTO daily_stats (subject_type, subject_id, day, author_id, views, reads, filtered_bot, filtered_repeat, likes, dislikes,
    favorites, comments, shares, followers, income_tips, income_unlocks, income_ads, income_missions, income_rewards)
  VALUES (p_type, p_id, p_day, subject_author_id(p_type, p_id), p_views, p_reads, p_filtered_bot, p_filtered_repeat, p_likes,
    p_dislikes, p_favorites, p_comments, p_shares, p_followers, p_income_tips, p_income_unlocks, p_income_ads, p_income_missions,
    p_income_rewards)
  ON CONFLICT (subject_type, subject_id, day) DO UPDATE SET
    views = daily_stats.views + excluded.views, reads = daily_stats.reads + excluded.reads,
    filtered_bot = daily_stats.filtered_bot + excluded.filtered_bot, filtered_repeat = daily_stats.filtered_repeat + excluded.filtered_repeat,
    likes = daily_stats.likes + excluded.likes, dislikes = daily_stats.dislikes + excluded.dislikes,
    favorites = daily_stats.favorites + excluded.favorites, comments = daily_stats.comments + excluded.comments,
    shares = daily_stats.shares + excluded.shares, followers = daily_stats.followers + excluded.followers,
    income_tips = daily_stats.income_tips + excluded.income_tips, income_unlocks = daily_stats.income_unlocks + excluded.income_unlocks,
    income_ads = daily_stats.income_ads + excluded.income_ads, income_missions = daily_stats.income_missions + excluded.income_missions,
    income_rewards = daily_stats.income_rewards + excluded.income_rewards;
END
$$;
--> statement-breakpoint
-- The rollups as the raw records give them (the definitions of docs/features/metrics.md), for days in [p_from, p_to].
CREATE OR REPLACE FUNCTION daily_stats_from_raw(p_from date, p_to date) RETURNS TABLE (
  subject_type text, subject_id integer, day date, views integer, reads integer, filtered_bot integer, filtered_repeat integer,
  likes integer, dislikes integer, favorites integer, comments integer, shares integer, followers integer, income_tips integer,
  income_unlocks integer, income_ads integer, income_missions integer, income_rewards integer
) LANGUAGE sql STABLE AS $$
  WITH raw AS (
    SELECT v.subject_type AS t, v.subject_id AS i, v.day AS d,
      (NOT v.bot)::int AS views, (NOT v.bot AND v.read_at IS NOT NULL)::int AS reads,
      CASE WHEN v.bot THEN v.hits ELSE 0 END AS fb, CASE WHEN v.bot THEN 0 ELSE v.hits - 1 END AS fr,
      0 AS li, 0 AS di, 0 AS fa, 0 AS co, 0 AS sh, 0 AS fo, 0 AS it, 0 AS iu, 0 AS ia, 0 AS im, 0 AS ir
    FROM subject_views v WHERE v.day BETWEEN p_from AND p_to
    UNION ALL
    SELECT r.subject_type, r.subject_id, shanghai_day(r.created_at), 0, 0, 0, 0,
      (r.kind = 'like')::int, (r.kind = 'dislike')::int, 0, 0, 0, 0, 0, 0, 0, 0, 0
    FROM reactions r WHERE shanghai_day(r.created_at) BETWEEN p_from AND p_to
    UNION ALL
    SELECT f.subject_type, f.subject_id, shanghai_day(f.created_at), 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0
    FROM favorites f WHERE shanghai_day(f.created_at) BETWEEN p_from AND p_to
    UNION ALL
    SELECT c.subject_type, c.subject_id, shanghai_day(c.created_at), 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0
    FROM comments c WHERE c.deleted_at IS NULL AND shanghai_day(c.created_at) BETWEEN p_from AND p_to
      AND c.author_id IS DISTINCT FROM subject_author_id(c.subject_type, c.subject_id)
    UNION ALL
    SELECT s.subject_type, s.subject_id, s.day, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0
    FROM subject_shares s WHERE s.day BETWEEN p_from AND p_to
    UNION ALL
    SELECT 'user', f.followee_id, shanghai_day(f.created_at), 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0
    FROM follows f WHERE shanghai_day(f.created_at) BETWEEN p_from AND p_to
    UNION ALL
    SELECT 'user', a.user_id, shanghai_day(t.created_at), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
      CASE ledger_income_source(t.kind) WHEN 'tips' THEN e.amount ELSE 0 END,
      CASE ledger_income_source(t.kind) WHEN 'unlocks' THEN e.amount ELSE 0 END,
      CASE ledger_income_source(t.kind) WHEN 'ads' THEN e.amount ELSE 0 END,
      CASE ledger_income_source(t.kind) WHEN 'missions' THEN e.amount ELSE 0 END,
      CASE ledger_income_source(t.kind) WHEN 'rewards' THEN e.amount ELSE 0 END
    FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id JOIN ledger_transactions t ON t.id = e.transaction_id
    WHERE a.user_id IS NOT NULL AND a.currency = 'sinecoin' AND ledger_income_source(t.kind) IS NOT NULL
      AND shanghai_day(t.created_at) BETWEEN p_from AND p_to
  )
  SELECT t, i, d, sum(views)::int, sum(reads)::int, sum(fb)::int, sum(fr)::int, sum(li)::int, sum(di)::int, sum(fa)::int,
    sum(co)::int, sum(sh)::int, sum(fo)::int, sum(it)::int, sum(iu)::int, sum(ia)::int, sum(im)::int, sum(ir)::int
  FROM raw GROUP BY t, i, d
$$;
--> statement-breakpoint
INSERT INTO subject_views (subject_type, subject_id, visitor, day)
  SELECT 'writing', writing_id, visitor, day FROM writing_views
  UNION ALL SELECT 'book', book_id, visitor, day FROM book_views
  UNION ALL SELECT 'entry', entry_id, visitor, day FROM entry_views
  UNION ALL SELECT 'question', question_id, visitor, day FROM question_views
ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO daily_stats (subject_type, subject_id, day, author_id, views, reads, filtered_bot, filtered_repeat, likes, dislikes,
  favorites, comments, shares, followers, income_tips, income_unlocks, income_ads, income_missions, income_rewards)
SELECT r.subject_type, r.subject_id, r.day, subject_author_id(r.subject_type, r.subject_id), r.views, r.reads, r.filtered_bot,
  r.filtered_repeat, r.likes, r.dislikes, r.favorites, r.comments, r.shares, r.followers, r.income_tips, r.income_unlocks,
  r.income_ads, r.income_missions, r.income_rewards
FROM daily_stats_from_raw('1970-01-01', '9999-12-31') r;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION daily_stats_views_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- An update within one key moves by the difference; otherwise the old row leaves and the new one arrives.
  IF TG_OP = 'UPDATE' AND OLD.subject_type = NEW.subject_type AND OLD.subject_id = NEW.subject_id AND OLD.day = NEW.day AND OLD.bot = NEW.bot THEN
    PERFORM daily_stats_add(NEW.subject_type, NEW.subject_id, NEW.day,
      p_reads => CASE WHEN NEW.bot THEN 0 ELSE (NEW.read_at IS NOT NULL)::int - (OLD.read_at IS NOT NULL)::int END,
      p_filtered_bot => CASE WHEN NEW.bot THEN NEW.hits - OLD.hits ELSE 0 END,
      p_filtered_repeat => CASE WHEN NEW.bot THEN 0 ELSE NEW.hits - OLD.hits END);
    RETURN NULL;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    PERFORM daily_stats_add(OLD.subject_type, OLD.subject_id, OLD.day, p_views => -(NOT OLD.bot)::int,
      p_reads => -(NOT OLD.bot AND OLD.read_at IS NOT NULL)::int, p_filtered_bot => -(CASE WHEN OLD.bot THEN OLD.hits ELSE 0 END),
      p_filtered_repeat => -(CASE WHEN OLD.bot THEN 0 ELSE OLD.hits - 1 END));
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN
    PERFORM daily_stats_add(NEW.subject_type, NEW.subject_id, NEW.day, p_views => (NOT NEW.bot)::int,
      p_reads => (NOT NEW.bot AND NEW.read_at IS NOT NULL)::int, p_filtered_bot => CASE WHEN NEW.bot THEN NEW.hits ELSE 0 END,
      p_filtered_repeat => CASE WHEN NEW.bot THEN 0 ELSE NEW.hits - 1 END);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER subject_views_daily_stats AFTER INSERT OR UPDATE OR DELETE ON subject_views
  FOR EACH ROW EXECUTE FUNCTION daily_stats_views_trigger();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION daily_stats_reactions_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    PERFORM daily_stats_add(OLD.subject_type, OLD.subject_id, shanghai_day(OLD.created_at),
      p_likes => -(OLD.kind = 'like')::int, p_dislikes => -(OLD.kind = 'dislike')::int);
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN
    PERFORM daily_stats_add(NEW.subject_type, NEW.subject_id, shanghai_day(NEW.created_at),
      p_likes => (NEW.kind = 'like')::int, p_dislikes => (NEW.kind = 'dislike')::int);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER reactions_daily_stats AFTER INSERT OR UPDATE OR DELETE ON reactions
  FOR EACH ROW EXECUTE FUNCTION daily_stats_reactions_trigger();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION daily_stats_favorites_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    PERFORM daily_stats_add(OLD.subject_type, OLD.subject_id, shanghai_day(OLD.created_at), p_favorites => -1);
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN
    PERFORM daily_stats_add(NEW.subject_type, NEW.subject_id, shanghai_day(NEW.created_at), p_favorites => 1);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER favorites_daily_stats AFTER INSERT OR DELETE OR UPDATE OF subject_type, subject_id, created_at ON favorites
  FOR EACH ROW EXECUTE FUNCTION daily_stats_favorites_trigger();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION daily_stats_comments_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.deleted_at IS NULL
    AND OLD.author_id IS DISTINCT FROM subject_author_id(OLD.subject_type, OLD.subject_id) THEN
    PERFORM daily_stats_add(OLD.subject_type, OLD.subject_id, shanghai_day(OLD.created_at), p_comments => -1);
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') AND NEW.deleted_at IS NULL
    AND NEW.author_id IS DISTINCT FROM subject_author_id(NEW.subject_type, NEW.subject_id) THEN
    PERFORM daily_stats_add(NEW.subject_type, NEW.subject_id, shanghai_day(NEW.created_at), p_comments => 1);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER comments_daily_stats AFTER INSERT OR DELETE OR UPDATE OF deleted_at, subject_type, subject_id, author_id, created_at ON comments
  FOR EACH ROW EXECUTE FUNCTION daily_stats_comments_trigger();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION daily_stats_shares_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    PERFORM daily_stats_add(OLD.subject_type, OLD.subject_id, OLD.day, p_shares => -1);
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN
    PERFORM daily_stats_add(NEW.subject_type, NEW.subject_id, NEW.day, p_shares => 1);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER subject_shares_daily_stats AFTER INSERT OR UPDATE OR DELETE ON subject_shares
  FOR EACH ROW EXECUTE FUNCTION daily_stats_shares_trigger();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION daily_stats_follows_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    PERFORM daily_stats_add('user', OLD.followee_id, shanghai_day(OLD.created_at), p_followers => -1);
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN
    PERFORM daily_stats_add('user', NEW.followee_id, shanghai_day(NEW.created_at), p_followers => 1);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER follows_daily_stats AFTER INSERT OR UPDATE OR DELETE ON follows
  FOR EACH ROW EXECUTE FUNCTION daily_stats_follows_trigger();
--> statement-breakpoint
-- Ledger entries are never updated or deleted (append-only), so an insert is all there is.
CREATE OR REPLACE FUNCTION daily_stats_ledger_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_user integer;
  v_source text;
  v_day date;
BEGIN
  SELECT a.user_id, ledger_income_source(t.kind), shanghai_day(t.created_at) INTO v_user, v_source, v_day
  FROM ledger_accounts a, ledger_transactions t
  WHERE a.id = NEW.account_id AND t.id = NEW.transaction_id AND a.currency = 'sinecoin';
  IF v_user IS NULL OR v_source IS NULL THEN RETURN NULL; END IF;
  PERFORM daily_stats_add('user', v_user, v_day,
    p_income_tips => CASE v_source WHEN 'tips' THEN NEW.amount ELSE 0 END,
    p_income_unlocks => CASE v_source WHEN 'unlocks' THEN NEW.amount ELSE 0 END,
    p_income_ads => CASE v_source WHEN 'ads' THEN NEW.amount ELSE 0 END,
    p_income_missions => CASE v_source WHEN 'missions' THEN NEW.amount ELSE 0 END,
    p_income_rewards => CASE v_source WHEN 'rewards' THEN NEW.amount ELSE 0 END);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER ledger_entries_daily_stats AFTER INSERT ON ledger_entries
  FOR EACH ROW EXECUTE FUNCTION daily_stats_ledger_trigger();
