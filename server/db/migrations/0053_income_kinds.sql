-- The income kinds of every ledger kind declared since 0047 (missions, cashouts, ads), as
-- features/ledger/kinds.ts declares them (features/metrics/income.test.ts compares the two).
CREATE OR REPLACE FUNCTION ledger_income_source(p_kind text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE p_kind
    WHEN 'checkin_reward' THEN 'rewards'
    WHEN 'tip' THEN 'tips'
    WHEN 'unlock' THEN 'unlocks'
    WHEN 'unlock_refund' THEN 'unlocks'
    WHEN 'trade_reward' THEN 'missions'
    WHEN 'mission_reward' THEN 'rewards'
    WHEN 'mission_income' THEN 'missions'
    WHEN 'ad_payout' THEN 'ads'
  END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION ledger_income_reverses(p_kind text) RETURNS boolean LANGUAGE sql IMMUTABLE AS $$
  SELECT p_kind IN ('unlock_refund')
$$;
