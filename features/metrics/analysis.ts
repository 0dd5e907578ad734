import { sql } from "drizzle-orm";
import type { Executor } from "../../server/db/client.ts";
import type { DayRange } from "./rollups.ts";

/** One Asia/Shanghai day of a creator's figures (docs/features/metrics.md). */
export interface CreatorDay {
  day: string;
  views: number;
  reads: number;
  likes: number;
  favorites: number;
  comments: number;
  shares: number;
  followers: number;
  filteredViews: number;
  income: { tips: number; unlocks: number; ads: number; missions: number; rewards: number };
}

/**
 * A creator's figures per day over a range (what `GET /api/creator/analysis/content/?from=&to=`
 * will answer): the sum of the daily rollups of everything they wrote and of their own row
 * (followers gained, income by source). Days without anything are left out. One indexed range
 * scan (`daily_stats_author_day_idx`), whatever the raw tables hold.
 */
export async function creatorAnalysis(db: Executor, userId: number, range: DayRange): Promise<CreatorDay[]> {
  const result = await db.execute<Record<string, unknown>>(sql`
    select to_char(day, 'YYYY-MM-DD') as day, sum(views)::int as views, sum(reads)::int as reads, sum(likes)::int as likes,
      sum(favorites)::int as favorites, sum(comments)::int as comments, sum(shares)::int as shares, sum(followers)::int as followers,
      sum(filtered_bot + filtered_repeat)::int as filtered, sum(income_tips)::int as tips, sum(income_unlocks)::int as unlocks,
      sum(income_ads)::int as ads, sum(income_missions)::int as missions, sum(income_rewards)::int as rewards
    from daily_stats
    where author_id = ${userId} and day between ${range.from}::date and ${range.to}::date
    group by day
    order by day`);
  return (result as unknown as { rows: Record<string, unknown>[] }).rows.map((row) => ({
    day: String(row.day),
    views: Number(row.views),
    reads: Number(row.reads),
    likes: Number(row.likes),
    favorites: Number(row.favorites),
    comments: Number(row.comments),
    shares: Number(row.shares),
    followers: Number(row.followers),
    filteredViews: Number(row.filtered),
    income: {
      tips: Number(row.tips),
      unlocks: Number(row.unlocks),
      ads: Number(row.ads),
      missions: Number(row.missions),
      rewards: Number(row.rewards),
    },
  }));
}
