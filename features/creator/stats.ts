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
 * The creator centre's figures for one user, each read from what records it with a time:
 * views from `writing_views` and `book_views` (one row per visitor and Asia/Shanghai day, so "7
 * days" is today and the six before), likes and favourites received from the `events` that name
 * the user as recipient (`reaction.added` or `reaction.changed` to a like, `favorite.added`; the
 * GIN index on recipients), comments from the `comments` table (others' comments and replies on
 * the user's writings and books, not deleted), new followers from `user.followed` events about
 * the user. Totals are the stored counters (views columns, `subject_counts`, `follows`).
 */
export async function creatorStats(db: Executor, userId: number, now: Date = new Date()): Promise<CreatorStats> {
  const windows = statWindows.map((days) => ({
    days,
    since: new Date(now.getTime() - days * dayMs),
    firstDay: shanghaiDay(new Date(now.getTime() - (days - 1) * dayMs)),
  }));
  const figures = (since: Date | null, firstDay: string | null) => {
    const after = (column: string) => (since ? sql`and ${sql.raw(column)} > ${since.toISOString()}::timestamptz` : sql``);
    const fromDay = (column: string) => (firstDay ? sql`and ${sql.raw(column)} >= ${firstDay}::date` : sql``);
    const views = firstDay
      ? sql`(select count(*) from writing_views v join writings w on w.id = v.writing_id where w.author_id = ${userId} ${fromDay("v.day")})
          + (select count(*) from book_views v join books b on b.id = v.book_id where b.author_id = ${userId} ${fromDay("v.day")})`
      : sql`(select coalesce(sum(views), 0) from writings where author_id = ${userId})
          + (select coalesce(sum(views), 0) from books where author_id = ${userId})`;
    const likes = since
      ? sql`(select count(*) from events e where e.recipient_ids @> array[${userId}::integer]
            and ((e.verb = 'reaction.added' and e.data->>'reaction' = 'like') or (e.verb = 'reaction.changed' and e.data->>'to' = 'like'))
            ${after("e.created_at")})`
      : sql`(select coalesce(sum(like_count), 0) from subject_counts where author_id = ${userId})`;
    const favorites = since
      ? sql`(select count(*) from events e where e.recipient_ids @> array[${userId}::integer] and e.verb = 'favorite.added' ${after("e.created_at")})`
      : sql`(select coalesce(sum(favorite_count), 0) from subject_counts where author_id = ${userId})`;
    const comments = sql`(
      (select count(*) from comments c join writings w on c.subject_type = 'writing' and w.id = c.subject_id
        where w.author_id = ${userId} and c.author_id <> ${userId} and c.deleted_at is null ${after("c.created_at")})
      + (select count(*) from comments c join books b on c.subject_type = 'book' and b.id = c.subject_id
        where b.author_id = ${userId} and c.author_id <> ${userId} and c.deleted_at is null ${after("c.created_at")}))`;
    const followers = since
      ? sql`(select count(*) from events e where e.subject_type = 'user' and e.subject_id = ${userId} and e.verb = 'user.followed' ${after("e.created_at")})`
      : sql`(select count(*) from follows where followee_id = ${userId})`;
    return sql`json_build_object('views', ${views}, 'likes', ${likes}, 'favorites', ${favorites}, 'comments', ${comments}, 'followers', ${followers})`;
  };
  const result = await db.execute(sql`select
    (select count(*) filter (where type = 'article') from writings where author_id = ${userId} and translation_of is null) as articles,
    (select count(*) filter (where type = 'serial') from writings where author_id = ${userId} and translation_of is null) as serials,
    (select count(*) filter (where type = 'post') from writings where author_id = ${userId} and translation_of is null) as posts,
    (select count(*) from books where author_id = ${userId}) as books,
    (select count(*) from book_chapters c join books b on b.id = c.book_id where b.author_id = ${userId}) as chapters,
    ${figures(windows[0]!.since, windows[0]!.firstDay)} as week,
    ${figures(windows[1]!.since, windows[1]!.firstDay)} as month,
    ${figures(null, null)} as total`);
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
