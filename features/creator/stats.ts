import { sql } from "drizzle-orm";
import type { Executor } from "../../server/db/client.ts";
import { shanghaiDay } from "../../common/locale.ts";

/** The windows the creator centre counts over, in days. */
export const statWindows = [7, 30] as const;
export type StatWindow = (typeof statWindows)[number];

export interface StatFigures {
  views: number;
  likes: number;
  favorites: number;
  comments: number;
  followers: number;
}

export interface CreatorStats {
  /** The user's content now: first language versions of writings by type, books, chapters. */
  content: { articles: number; serials: number; posts: number; books: number; chapters: number };
  /** What happened in the last 7 and 30 days. */
  recent: Record<StatWindow, StatFigures>;
  /** Everything so far: the counters as they stand. */
  total: StatFigures;
}

const dayMs = 86_400_000;

/**
 * The creator centre's figures for one user. The windows ("7 days": today and the six Asia/Shanghai
 * days before) sum the daily rollups (`daily_stats`, docs/features/metrics.md) of everything the
 * user wrote and of the user's own row (followers gained): net likes and favourites by the day they
 * were given, views once per visitor and day, others' comments not deleted. Totals are the stored
 * counters (views columns, `subject_counts`, `follows`) and the comments on writings and books.
 */
export async function creatorStats(db: Executor, userId: number, now: Date = new Date()): Promise<CreatorStats> {
  const windows = statWindows.map((days) => shanghaiDay(new Date(now.getTime() - (days - 1) * dayMs)));
  const window = (firstDay: string) => sql`(select json_build_object('views', coalesce(sum(views), 0), 'likes', coalesce(sum(likes), 0),
      'favorites', coalesce(sum(favorites), 0), 'comments', coalesce(sum(comments), 0), 'followers', coalesce(sum(followers), 0))
    from daily_stats where author_id = ${userId} and day >= ${firstDay}::date)`;
  const total = sql`json_build_object(
    'views', (select coalesce(sum(views), 0) from writings where author_id = ${userId})
      + (select coalesce(sum(views), 0) from books where author_id = ${userId}),
    'likes', (select coalesce(sum(like_count), 0) from subject_counts where author_id = ${userId}),
    'favorites', (select coalesce(sum(favorite_count), 0) from subject_counts where author_id = ${userId}),
    'comments', (select count(*) from comments c join writings w on c.subject_type = 'writing' and w.id = c.subject_id
        where w.author_id = ${userId} and c.author_id <> ${userId} and c.deleted_at is null)
      + (select count(*) from comments c join books b on c.subject_type = 'book' and b.id = c.subject_id
        where b.author_id = ${userId} and c.author_id <> ${userId} and c.deleted_at is null),
    'followers', (select count(*) from follows where followee_id = ${userId}))`;
  const result = await db.execute(sql`select
    (select count(*) filter (where type = 'article') from writings where author_id = ${userId} and translation_of is null) as articles,
    (select count(*) filter (where type = 'serial') from writings where author_id = ${userId} and translation_of is null) as serials,
    (select count(*) filter (where type = 'post') from writings where author_id = ${userId} and translation_of is null) as posts,
    (select count(*) from books where author_id = ${userId}) as books,
    (select count(*) from book_chapters c join books b on b.id = c.book_id where b.author_id = ${userId}) as chapters,
    ${window(windows[0]!)} as week,
    ${window(windows[1]!)} as month,
    ${total} as total`);
  const row = (result as unknown as { rows: Record<string, unknown>[] }).rows[0]!;
  const numbers = (value: unknown): StatFigures => {
    const raw = (typeof value === "string" ? JSON.parse(value) : value) as Record<keyof StatFigures, unknown>;
    return {
      views: Number(raw.views),
      likes: Number(raw.likes),
      favorites: Number(raw.favorites),
      comments: Number(raw.comments),
      followers: Number(raw.followers),
    };
  };
  return {
    content: {
      articles: Number(row.articles),
      serials: Number(row.serials),
      posts: Number(row.posts),
      books: Number(row.books),
      chapters: Number(row.chapters),
    },
    recent: { 7: numbers(row.week), 30: numbers(row.month) },
    total: numbers(row.total),
  };
}
