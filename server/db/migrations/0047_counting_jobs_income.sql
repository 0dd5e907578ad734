ALTER TABLE "job_runs" ADD COLUMN "summary" text;--> statement-breakpoint
-- Income by source from the typed ledger kinds (features/ledger/kinds.ts, each kind's `income`
-- declaration): one line per kind declaring a source. `red_packet_claim` declares none (a share of
-- someone's own topped-up money is never income). A test compares these with the declarations.
CREATE OR REPLACE FUNCTION ledger_income_source(p_kind text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE p_kind
    WHEN 'checkin_reward' THEN 'rewards'
    WHEN 'tip' THEN 'tips'
    WHEN 'unlock' THEN 'unlocks'
    WHEN 'unlock_refund' THEN 'unlocks'
    WHEN 'trade_reward' THEN 'missions'
  END
$$;
--> statement-breakpoint
-- The kinds declared `reverses: true`: they take income back.
CREATE OR REPLACE FUNCTION ledger_income_reverses(p_kind text) RETURNS boolean LANGUAGE sql IMMUTABLE AS $$
  SELECT p_kind IN ('unlock_refund')
$$;
--> statement-breakpoint
-- Whether an entry on a user's sinecoin purse is that user's income (or, for a reversing kind, income
-- taken back): a credit of an income kind (a debit of a reversing one), and, when the transaction
-- names the author (`authorId`), only the author's side: the tipper's debit of a tip is spending,
-- the reader's refund of an unlock is their own money back. features/analysis/profit.ts reads the
-- ledger the same way.
CREATE OR REPLACE FUNCTION ledger_entry_is_income(p_kind text, p_data jsonb, p_user integer, p_amount integer)
RETURNS boolean LANGUAGE sql IMMUTABLE AS $$
  SELECT ledger_income_source(p_kind) IS NOT NULL AND p_user IS NOT NULL
    AND coalesce((p_data->>'authorId')::integer = p_user, true)
    AND CASE WHEN ledger_income_reverses(p_kind) THEN p_amount < 0 ELSE p_amount > 0 END
$$;
--> statement-breakpoint
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
    WHERE a.user_id IS NOT NULL AND a.currency = 'sinecoin' AND a.hold = 'purse'
      AND ledger_entry_is_income(t.kind, t.data, a.user_id, e.amount)
      AND shanghai_day(t.created_at) BETWEEN p_from AND p_to
  )
  SELECT t, i, d, sum(views)::int, sum(reads)::int, sum(fb)::int, sum(fr)::int, sum(li)::int, sum(di)::int, sum(fa)::int,
    sum(co)::int, sum(sh)::int, sum(fo)::int, sum(it)::int, sum(iu)::int, sum(ia)::int, sum(im)::int, sum(ir)::int
  FROM raw GROUP BY t, i, d
$$;
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
  WHERE a.id = NEW.account_id AND t.id = NEW.transaction_id AND a.currency = 'sinecoin' AND a.hold = 'purse'
    AND ledger_entry_is_income(t.kind, t.data, a.user_id, NEW.amount);
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
-- The users' income rows made again under the typed definition: every income figure from the raw
-- ledger (rows the old mapping gave a tipper's debit or a red packet share are zeroed).
UPDATE daily_stats SET income_tips = 0, income_unlocks = 0, income_ads = 0, income_missions = 0, income_rewards = 0
WHERE subject_type = 'user' AND (income_tips <> 0 OR income_unlocks <> 0 OR income_ads <> 0 OR income_missions <> 0 OR income_rewards <> 0);
--> statement-breakpoint
INSERT INTO daily_stats (subject_type, subject_id, day, author_id, income_tips, income_unlocks, income_ads, income_missions, income_rewards)
SELECT r.subject_type, r.subject_id, r.day, r.subject_id, r.income_tips, r.income_unlocks, r.income_ads, r.income_missions, r.income_rewards
FROM daily_stats_from_raw('1970-01-01', '9999-12-31') r
WHERE r.subject_type = 'user' AND (r.income_tips <> 0 OR r.income_unlocks <> 0 OR r.income_ads <> 0 OR r.income_missions <> 0 OR r.income_rewards <> 0)
ON CONFLICT (subject_type, subject_id, day) DO UPDATE SET income_tips = excluded.income_tips, income_unlocks = excluded.income_unlocks,
  income_ads = excluded.income_ads, income_missions = excluded.income_missions, income_rewards = excluded.income_rewards;
--> statement-breakpoint
-- Views follow their rows once per statement, not once per row: a batch of view beacons (one upsert
-- of many rows, features/metrics/views.ts `writeViews`) adds to each subject's day in one upsert.
-- Each figure is a sum over rows (a row counts a view unless a bot's, a read once read, its hits past
-- the first as repeats, a bot row's hits as bot views), so a statement moves the rollups by the new
-- rows' sum less the old rows' sum. Transition tables allow one event per trigger: three triggers.
DROP TRIGGER IF EXISTS subject_views_daily_stats ON subject_views;
--> statement-breakpoint
DROP FUNCTION IF EXISTS daily_stats_views_trigger();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION daily_stats_views_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO daily_stats (subject_type, subject_id, day, author_id, views, reads, filtered_bot, filtered_repeat)
  SELECT m.subject_type, m.subject_id, m.day, subject_author_id(m.subject_type, m.subject_id), m.views, m.reads, m.fb, m.fr
  FROM (
    SELECT x.subject_type, x.subject_id, x.day, sum(x.views)::int AS views, sum(x.reads)::int AS reads, sum(x.fb)::int AS fb,
      sum(x.fr)::int AS fr
    FROM (
      SELECT n.subject_type, n.subject_id, n.day, (NOT n.bot)::int AS views, (NOT n.bot AND n.read_at IS NOT NULL)::int AS reads,
      (CASE WHEN n.bot THEN n.hits ELSE 0 END) AS fb, (CASE WHEN n.bot THEN 0 ELSE n.hits - 1 END) AS fr
      FROM new_rows n
    ) x
    GROUP BY 1, 2, 3
  ) m
  WHERE m.views <> 0 OR m.reads <> 0 OR m.fb <> 0 OR m.fr <> 0
  ORDER BY 1, 2, 3
  ON CONFLICT (subject_type, subject_id, day) DO UPDATE SET
    views = daily_stats.views + excluded.views, reads = daily_stats.reads + excluded.reads,
    filtered_bot = daily_stats.filtered_bot + excluded.filtered_bot,
    filtered_repeat = daily_stats.filtered_repeat + excluded.filtered_repeat;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION daily_stats_views_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO daily_stats (subject_type, subject_id, day, author_id, views, reads, filtered_bot, filtered_repeat)
  SELECT m.subject_type, m.subject_id, m.day, subject_author_id(m.subject_type, m.subject_id), m.views, m.reads, m.fb, m.fr
  FROM (
    SELECT x.subject_type, x.subject_id, x.day, sum(x.views)::int AS views, sum(x.reads)::int AS reads, sum(x.fb)::int AS fb,
      sum(x.fr)::int AS fr
    FROM (
      SELECT n.subject_type, n.subject_id, n.day, (NOT n.bot)::int AS views, (NOT n.bot AND n.read_at IS NOT NULL)::int AS reads,
      (CASE WHEN n.bot THEN n.hits ELSE 0 END) AS fb, (CASE WHEN n.bot THEN 0 ELSE n.hits - 1 END) AS fr
      FROM new_rows n
      UNION ALL
      SELECT o.subject_type, o.subject_id, o.day, -(NOT o.bot)::int AS views, -(NOT o.bot AND o.read_at IS NOT NULL)::int AS reads,
      -(CASE WHEN o.bot THEN o.hits ELSE 0 END) AS fb, -(CASE WHEN o.bot THEN 0 ELSE o.hits - 1 END) AS fr
      FROM old_rows o
    ) x
    GROUP BY 1, 2, 3
  ) m
  WHERE m.views <> 0 OR m.reads <> 0 OR m.fb <> 0 OR m.fr <> 0
  ORDER BY 1, 2, 3
  ON CONFLICT (subject_type, subject_id, day) DO UPDATE SET
    views = daily_stats.views + excluded.views, reads = daily_stats.reads + excluded.reads,
    filtered_bot = daily_stats.filtered_bot + excluded.filtered_bot,
    filtered_repeat = daily_stats.filtered_repeat + excluded.filtered_repeat;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION daily_stats_views_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO daily_stats (subject_type, subject_id, day, author_id, views, reads, filtered_bot, filtered_repeat)
  SELECT m.subject_type, m.subject_id, m.day, subject_author_id(m.subject_type, m.subject_id), m.views, m.reads, m.fb, m.fr
  FROM (
    SELECT x.subject_type, x.subject_id, x.day, sum(x.views)::int AS views, sum(x.reads)::int AS reads, sum(x.fb)::int AS fb,
      sum(x.fr)::int AS fr
    FROM (
      SELECT o.subject_type, o.subject_id, o.day, -(NOT o.bot)::int AS views, -(NOT o.bot AND o.read_at IS NOT NULL)::int AS reads,
      -(CASE WHEN o.bot THEN o.hits ELSE 0 END) AS fb, -(CASE WHEN o.bot THEN 0 ELSE o.hits - 1 END) AS fr
      FROM old_rows o
    ) x
    GROUP BY 1, 2, 3
  ) m
  WHERE m.views <> 0 OR m.reads <> 0 OR m.fb <> 0 OR m.fr <> 0
  ORDER BY 1, 2, 3
  ON CONFLICT (subject_type, subject_id, day) DO UPDATE SET
    views = daily_stats.views + excluded.views, reads = daily_stats.reads + excluded.reads,
    filtered_bot = daily_stats.filtered_bot + excluded.filtered_bot,
    filtered_repeat = daily_stats.filtered_repeat + excluded.filtered_repeat;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER subject_views_daily_stats_insert AFTER INSERT ON subject_views
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION daily_stats_views_inserted();
--> statement-breakpoint
CREATE TRIGGER subject_views_daily_stats_update AFTER UPDATE ON subject_views
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION daily_stats_views_updated();
--> statement-breakpoint
CREATE TRIGGER subject_views_daily_stats_delete AFTER DELETE ON subject_views
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION daily_stats_views_deleted();
--> statement-breakpoint
-- A creator's analysis (features/metrics/analysis.ts `creatorAnalysis`) sums their rows per day: the
-- author's index carries every figure it sums, so the scan never visits the table (an index-only scan
-- where the visibility map allows). Same name and key as before (the Drizzle schema's index).
DROP INDEX IF EXISTS "daily_stats_author_day_idx";
--> statement-breakpoint
CREATE INDEX "daily_stats_author_day_idx" ON "daily_stats" USING btree ("author_id", "day") INCLUDE ("views", "reads", "likes",
  "favorites", "comments", "shares", "followers", "filtered_bot", "filtered_repeat", "income_tips", "income_unlocks", "income_ads",
  "income_missions", "income_rewards");
