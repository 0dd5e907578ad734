import { sql, type SQL } from "drizzle-orm";
import type { Executor } from "../../server/db/client.ts";
import type { Locale } from "../../common/locale.ts";
import type { Viewer } from "../accounts/viewer.ts";
import { loadCircleAccessMap } from "../circles/access.server.ts";
import { canReadCircleContent } from "../circles/policy.ts";
import { shanghaiDay } from "../../common/locale.ts";
import type { RankingKind, RankingPeriod } from "./schema.ts";

/**
 * Rankings (`/ranking`): the hottest writings, questions, entries and books of the last day, week
 * or month (today and the Asia/Shanghai days before it), site-wide or in one circle, and the top
 * creators. An item's score is the one Hot formula (`engagement_hot_score`,
 * docs/features/interactions.md) over the period's daily rollups (`daily_stats`,
 * docs/features/metrics.md: net likes and dislikes, favourites, shares, others' comments), never
 * the raw event log, aged from its publication or the period's start, whichever is later; items published in the
 * period take part with no engagement yet. Each row carries its rank in the previous period of the
 * same length, so the page shows how it moved. Metadata and visibility come from the search index.
 */

export { rankingKinds, rankingPeriods, type RankingKind, type RankingPeriod } from "./schema.ts";

const periodDays: Record<RankingPeriod, number> = { day: 1, week: 7, month: 30 };
const dayMs = 86_400_000;
/** Rows per page (the page and the API). */
export const rankingPageLength = 20;
/** How deep a list goes (offset cursors up to it), and how far down the previous period is looked at for a rank change. */
export const rankingDepth = 100;

export interface RankingRow {
  rank: number;
  /** Places gained since the previous period (negative: lost); null when it was not ranked then. */
  change: number | null;
  id: number;
  title: string;
  /** Without the /en prefix. */
  url: string;
  circleId: number | null;
  author: { username: string; nickname: string } | null;
  score: number;
  /** A writing's version in the other language, when the row shows the reader's (without the /en prefix). */
  otherUrl?: string;
  /** Creators: likes received and followers gained in the period. */
  likes?: number;
  followers?: number;
}

export interface RankingOptions {
  kind: RankingKind;
  period: RankingPeriod;
  circleId?: number | null;
  /** Rows skipped (paging), below `rankingDepth`. */
  offset?: number;
  now?: Date;
  locale: Locale;
}

function readableArray(ids: number[]): SQL {
  return sql`${`{${ids.join(",")}}`}::integer[]`;
}

interface ScoredRow {
  id: number;
  title: string;
  path: string;
  circle_id: number | null;
  username: string | null;
  nickname: string | null;
  score: number;
  likes?: number;
  followers?: number;
  [key: string]: unknown;
}

/** A period: Asia/Shanghai days `from` to `to` (inclusive) of the rollups, and its start and end for ageing. */
interface Period {
  fromDay: string;
  toDay: string;
  start: Date;
  end: Date;
}

async function contentRanking(
  db: Executor,
  kind: Exclude<RankingKind, "creator">,
  period: Period,
  readable: number[],
  circleId: number | null,
  limit: number,
  locale: Locale,
) {
  const circle = circleId ? sql`and d.circle_id = ${circleId}` : sql``;
  // A writing's language versions are one piece: one row, in the reader's language when it has one, scored by its best version.
  const piece = kind === "writing" ? sql`(select coalesce(w.translation_of, w.id) from writings w where w.id = d.id)` : sql`d.id`;
  const result = await db.execute<ScoredRow>(sql`
    with counted as (
      select subject_id as id, sum(likes)::integer as likes, sum(dislikes)::integer as dislikes, sum(favorites)::integer as favorites,
        sum(shares)::integer as shares, sum(comments)::integer as comments
      from daily_stats
      where subject_type = ${kind} and day between ${period.fromDay}::date and ${period.toDay}::date
      group by subject_id
      having sum(likes) + sum(dislikes) + sum(favorites) + sum(shares) + sum(comments) > 0
    ), candidates as (
      select d.id from search_documents d where d.type = ${kind} and d.published_at >= ${period.start} and d.published_at < ${period.end}
      union
      select id from counted
    ), scored as (
      select d.id, d.title, d.path, d.circle_id, d.language, u.username, u.nickname, ${piece} as piece,
        engagement_hot_score(0, coalesce(c.comments, 0), coalesce(c.likes, 0), coalesce(c.dislikes, 0), coalesce(c.favorites, 0),
          coalesce(c.shares, 0), greatest(d.published_at, ${period.start}::timestamptz), ${period.end}::timestamptz) as score
      from candidates k
      join search_documents d on d.type = ${kind} and d.id = k.id
      left join counted c on c.id = d.id
      left join users u on u.id = d.author_id
      where d.published_at < ${period.end} and d.circle_id = any(${readableArray(readable)}) ${circle}
    ), versions as (
      select s.*,
        row_number() over (partition by piece order by (s.language = ${locale}) desc, s.score desc, s.id desc) as choice,
        max(s.score) over (partition by piece) as piece_score,
        (array_agg(s.path) filter (where s.language is distinct from ${locale}) over (partition by piece))[1] as other_path
      from scored s
    )
    select id, title, path, circle_id, username, nickname, piece_score as score,
      case when language = ${locale} then other_path end as other_path
    from versions
    where choice = 1
    order by piece_score desc, id desc
    limit ${limit}`);
  return (result as unknown as { rows: ScoredRow[] }).rows;
}

async function creatorRanking(db: Executor, period: Period, readable: number[], circleId: number | null, limit: number) {
  const circle = circleId ? sql`and d.circle_id = ${circleId}` : sql``;
  const days = sql`s.day between ${period.fromDay}::date and ${period.toDay}::date`;
  // Followers are not of a circle: a circle's list counts likes on what was published there only.
  const followers = circleId
    ? sql`select 0 as user_id, 0 as followers where false`
    : sql`select s.subject_id as user_id, sum(s.followers)::integer as followers from daily_stats s
          where s.subject_type = 'user' and ${days} group by s.subject_id having sum(s.followers) > 0`;
  const result = await db.execute<ScoredRow>(sql`
    with liked as (
      select d.author_id as user_id, sum(s.likes)::integer as likes
      from daily_stats s
      join search_documents d on d.type = s.subject_type and d.id = s.subject_id
      where ${days} and s.likes > 0 and d.type <> 'user' and d.type <> 'circle' and d.circle_id = any(${readableArray(readable)}) ${circle}
      group by d.author_id
    ), followed as (${followers})
    select u.id, coalesce(nullif(u.nickname, ''), u.username) as title, '/profile/' || u.username as path, null::integer as circle_id,
      u.username, u.nickname, coalesce(l.likes, 0) as likes, coalesce(f.followers, 0) as followers,
      (coalesce(l.likes, 0) + 5 * coalesce(f.followers, 0))::float8 as score
    from (select user_id from liked union select user_id from followed) k
    join users u on u.id = k.user_id
    left join liked l on l.user_id = u.id
    left join followed f on f.user_id = u.id
    where u.hidden_at is null
    order by score desc, u.id desc
    limit ${limit}`);
  return (result as unknown as { rows: ScoredRow[] }).rows.map((row) => ({
    ...row,
    path: `/profile/${encodeURIComponent(row.username ?? "")}`,
  }));
}

/** The period of `days` Asia/Shanghai days ending `daysBefore` periods before today's. */
function periodOf(now: Date, days: number, periodsBefore: number): Period {
  const last = new Date(now.getTime() - periodsBefore * days * dayMs);
  const fromDay = shanghaiDay(new Date(last.getTime() - (days - 1) * dayMs));
  const toDay = shanghaiDay(last);
  const start = new Date(`${fromDay}T00:00:00+08:00`);
  const end = periodsBefore === 0 ? now : new Date(new Date(`${toDay}T00:00:00+08:00`).getTime() + dayMs);
  return { fromDay, toDay, start, end };
}

export interface RankingPage {
  rows: RankingRow[];
  /** The offset of the next page, null at the end or at `rankingDepth`. */
  nextOffset: number | null;
}

/** An offset cursor (`o20`) within the list's depth; anything else is the first page. */
/** The other language's version a content row links (`other_path` from `contentRanking`). */
function otherVersion(row: object): { otherUrl?: string } {
  const other = (row as { other_path?: unknown }).other_path;
  return typeof other === "string" ? { otherUrl: other } : {};
}

export function parseRankingCursor(cursor: string | null | undefined): number {
  const match = cursor ? /^o(\d{1,3})$/.exec(cursor) : null;
  const offset = match ? Number(match[1]) : 0;
  return offset < rankingDepth ? offset : 0;
}

/** One ranking list with rank changes, only what the viewer may read. */
export async function ranking(db: Executor, viewer: Viewer | null, options: RankingOptions): Promise<RankingRow[]> {
  return (await rankingPage(db, viewer, options)).rows;
}

/** One page of a ranking list (`rankingPageLength` rows from `offset`), with rank changes. */
export async function rankingPage(db: Executor, viewer: Viewer | null, options: RankingOptions): Promise<RankingPage> {
  const accesses = [...(await loadCircleAccessMap(db, viewer)).values()];
  const readable = accesses.filter(canReadCircleContent).map((access) => access.circle.id);
  const circleId = options.circleId && readable.includes(options.circleId) ? options.circleId : null;
  if (options.circleId && !circleId) return { rows: [], nextOffset: null };
  const offset = Math.min(Math.max(Math.trunc(options.offset ?? 0), 0), rankingDepth - 1);
  const end = Math.min(offset + rankingPageLength, rankingDepth);
  const now = options.now ?? new Date();
  const days = periodDays[options.period];
  const list = (period: Period, limit: number) =>
    options.kind === "creator"
      ? creatorRanking(db, period, readable, circleId, limit)
      : contentRanking(db, options.kind, period, readable, circleId, limit, options.locale);
  // One row past the page tells whether another follows.
  const [listed, previous] = await Promise.all([list(periodOf(now, days, 0), end + 1), list(periodOf(now, days, 1), rankingDepth)]);
  const previousRank = new Map(previous.map((row, index) => [Number(row.id), index + 1]));
  const rows = listed.slice(offset, end).map((row, at) => {
    const index = offset + at;
    const earlier = previousRank.get(Number(row.id));
    return {
      rank: index + 1,
      change: earlier === undefined ? null : earlier - (index + 1),
      id: Number(row.id),
      title: row.title,
      url: row.path,
      circleId: row.circle_id === null ? null : Number(row.circle_id),
      author: row.username ? { username: row.username, nickname: row.nickname || row.username } : null,
      score: Number(row.score),
      ...otherVersion(row),
      ...(options.kind === "creator" ? { likes: Number(row.likes ?? 0), followers: Number(row.followers ?? 0) } : {}),
    };
  });
  return { rows, nextOffset: listed.length > end && end < rankingDepth ? end : null };
}
