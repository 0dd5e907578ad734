import { sql } from "drizzle-orm";
import type { Executor } from "../../server/db/client.ts";
import { AppError } from "../../common/app-error.ts";
import type { Viewer } from "../accounts/viewer.ts";
import { loadSubject } from "../subjects/registry.ts";
import type { DayRange } from "../metrics/rollups.ts";
import { daysOf } from "./range.ts";

/**
 * A creator's content analysis over a range of Asia/Shanghai days, read from the daily rollups
 * (`daily_stats`, docs/features/metrics.md) only: per day, summed over the range, and per piece.
 * With a subject, the same for that one piece (which must be the creator's own).
 */

export const contentFigures = ["views", "reads", "likes", "favorites", "comments", "shares", "followers_gained", "filtered_views"] as const;
export type ContentFigure = (typeof contentFigures)[number];
export type ContentFigures = Record<ContentFigure, number>;

export interface ContentItem {
  type: string;
  id: number;
  title: string;
  url: string;
  views: number;
  reads: number;
  likes: number;
  favorites: number;
  comments: number;
}

export interface ContentAnalysis {
  days: ({ day: string } & ContentFigures)[];
  totals: ContentFigures;
  /** Filtered views by reason over the range (the "not counted, and why" figure). */
  filtered: { bots: number; repeats: number };
  items: ContentItem[];
}

/** The creator's own row (followers) and comments (their replies' likes) are not pieces of content. */
const notPieces = sql`('user', 'comment')`;

type Rows = { rows: Record<string, unknown>[] };

function zeros(): ContentFigures {
  return Object.fromEntries(contentFigures.map((figure) => [figure, 0])) as ContentFigures;
}

export async function contentAnalysis(
  db: Executor,
  viewer: Viewer,
  range: DayRange,
  subject: { type: string; id: number } | null = null,
): Promise<ContentAnalysis> {
  if (subject) {
    const owner = await db.execute(sql`select subject_author_id(${subject.type}, ${subject.id}) as author`);
    if (Number((owner as unknown as Rows).rows[0]?.author ?? 0) !== viewer.id || subject.type === "user") throw new AppError("not_found");
  }
  const which = subject
    ? sql`subject_type = ${subject.type} and subject_id = ${subject.id}`
    : sql`(subject_type not in ${notPieces} or (subject_type = 'user' and subject_id = ${viewer.id}))`;
  const perDay = (await db.execute(sql`
    select to_char(day, 'YYYY-MM-DD') as day, sum(views)::int as views, sum(reads)::int as reads, sum(likes)::int as likes,
      sum(favorites)::int as favorites, sum(comments)::int as comments, sum(shares)::int as shares,
      sum(followers)::int as followers_gained, sum(filtered_bot)::int as bots, sum(filtered_repeat)::int as repeats
    from daily_stats
    where author_id = ${viewer.id} and day between ${range.from}::date and ${range.to}::date and ${which}
    group by day`)) as unknown as Rows;
  const byDay = new Map(perDay.rows.map((row) => [String(row.day), row]));
  const totals = zeros();
  const filtered = { bots: 0, repeats: 0 };
  const days = daysOf(range).map((day) => {
    const row = byDay.get(day);
    const figures = zeros();
    if (row) {
      for (const figure of contentFigures) if (figure !== "filtered_views") figures[figure] = Number(row[figure]);
      figures.filtered_views = Number(row.bots) + Number(row.repeats);
      filtered.bots += Number(row.bots);
      filtered.repeats += Number(row.repeats);
    }
    for (const figure of contentFigures) totals[figure] += figures[figure];
    return { day, ...figures };
  });
  return { days, totals, filtered, items: await contentItems(db, viewer, range, subject) };
}

/** Every piece with anything in the range, most viewed first, named as its own page names it. */
async function contentItems(
  db: Executor,
  viewer: Viewer,
  range: DayRange,
  subject: { type: string; id: number } | null,
): Promise<ContentItem[]> {
  const which = subject ? sql`subject_type = ${subject.type} and subject_id = ${subject.id}` : sql`subject_type not in ${notPieces}`;
  const result = (await db.execute(sql`
    select subject_type as type, subject_id as id, sum(views)::int as views, sum(reads)::int as reads, sum(likes)::int as likes,
      sum(favorites)::int as favorites, sum(comments)::int as comments
    from daily_stats
    where author_id = ${viewer.id} and day between ${range.from}::date and ${range.to}::date and ${which}
    group by subject_type, subject_id
    order by 3 desc, 1, 2
    limit 1000`)) as unknown as Rows;
  const items: ContentItem[] = [];
  for (const row of result.rows) {
    const named = await describeSubject(db, viewer, String(row.type), Number(row.id));
    if (!named) continue;
    items.push({
      type: String(row.type),
      id: Number(row.id),
      ...named,
      views: Number(row.views),
      reads: Number(row.reads),
      likes: Number(row.likes),
      favorites: Number(row.favorites),
      comments: Number(row.comments),
    });
  }
  return items;
}

/** A subject's title and page through its kind's registration; null when it is gone. */
export async function describeSubject(
  db: Executor,
  viewer: Viewer,
  type: string,
  id: number,
): Promise<{ title: string; url: string } | null> {
  try {
    const loaded = await loadSubject(db, viewer, type, id);
    return { title: loaded.title, url: loaded.path };
  } catch (error) {
    if (error instanceof AppError) return null;
    throw error;
  }
}
