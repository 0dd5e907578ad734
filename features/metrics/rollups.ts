import { and, inArray, lt, notInArray, sql } from "drizzle-orm";
import type { Executor } from "../../server/db/client.ts";
import { events } from "../../server/db/schema/index.ts";
import { shanghaiDay } from "../../common/locale.ts";
import type { EventVerb } from "../events/catalogue.ts";
import { activityVerbs } from "../profiles/activity.ts";

/**
 * The daily rollups (`daily_stats`, docs/features/metrics.md) against the raw records they are
 * made of. Triggers keep them in every write's transaction; `daily_stats_from_raw` (a database
 * function of the same migration) computes the same numbers from the raw records, so a check and
 * a rebuild share one definition with nothing to drift. Days are Asia/Shanghai days.
 */

/** Every figure a rollup row carries (its columns). */
export const rollupFigures = [
  "views",
  "reads",
  "filtered_bot",
  "filtered_repeat",
  "likes",
  "dislikes",
  "favorites",
  "comments",
  "shares",
  "followers",
  "income_tips",
  "income_unlocks",
  "income_ads",
  "income_missions",
  "income_rewards",
] as const;
export type RollupFigure = (typeof rollupFigures)[number];

export interface DayRange {
  /** First and last day, inclusive (YYYY-MM-DD). */
  from: string;
  to: string;
}

/** Every day there is: the range of a check or rebuild without bounds. */
export const allDays: DayRange = { from: "1970-01-01", to: "9999-12-31" };

export interface RollupDifference {
  subjectType: string;
  subjectId: number;
  day: string;
  figure: RollupFigure;
  rollup: number;
  raw: number;
}

const figureList = sql.raw(rollupFigures.join(", "));

/** Where the rollups differ from the raw records over a range of days (none: they are equal). */
export async function rollupDifferences(db: Executor, range: DayRange = allDays): Promise<RollupDifference[]> {
  const compared = sql.join(
    rollupFigures.map(
      (figure) => sql`select ${figure} as figure, coalesce(s.${sql.raw(figure)}, 0) as rollup, coalesce(r.${sql.raw(figure)}, 0) as raw`,
    ),
    sql` union all `,
  );
  const result = await db.execute<{
    subject_type: string;
    subject_id: number;
    day: string;
    figure: RollupFigure;
    rollup: number;
    raw: number;
  }>(sql`
    with s as (select subject_type, subject_id, day, ${figureList} from daily_stats where day between ${range.from}::date and ${range.to}::date),
      r as (select * from daily_stats_from_raw(${range.from}::date, ${range.to}::date))
    select coalesce(s.subject_type, r.subject_type) as subject_type, coalesce(s.subject_id, r.subject_id) as subject_id,
      to_char(coalesce(s.day, r.day), 'YYYY-MM-DD') as day, f.figure, f.rollup, f.raw
    from s full join r on r.subject_type = s.subject_type and r.subject_id = s.subject_id and r.day = s.day
      cross join lateral (${compared}) f
    where f.rollup <> f.raw
    order by 3, 1, 2, 4`);
  return (result as unknown as { rows: Record<string, unknown>[] }).rows.map((row) => ({
    subjectType: String(row.subject_type),
    subjectId: Number(row.subject_id),
    day: String(row.day),
    figure: row.figure as RollupFigure,
    rollup: Number(row.rollup),
    raw: Number(row.raw),
  }));
}

/**
 * Makes the rollups of a range of days again from the raw records, in one transaction (the
 * triggers of writes that land meanwhile wait for it): what `rollupDifferences` then finds is nothing.
 */
export async function rebuildRollups(db: Executor, range: DayRange = allDays): Promise<{ rows: number }> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`lock table daily_stats in share row exclusive mode`);
    await tx.execute(sql`delete from daily_stats where day between ${range.from}::date and ${range.to}::date`);
    const columns = sql.raw(rollupFigures.map((figure) => `r.${figure}`).join(", "));
    const result = await tx.execute<{ rows: number }>(sql`
      with made as (
        insert into daily_stats (subject_type, subject_id, day, author_id, ${figureList})
        select r.subject_type, r.subject_id, r.day, subject_author_id(r.subject_type, r.subject_id), ${columns}
        from daily_stats_from_raw(${range.from}::date, ${range.to}::date) r
        returning 1
      )
      select count(*)::int as rows from made`);
    return { rows: Number((result as unknown as { rows: { rows: number }[] }).rows[0]?.rows ?? 0) };
  });
}

/**
 * The events that stay however old: what pages read from the event log itself (a profile's
 * activity, the followers list, the messages' read version). Everything else is counted by the
 * rollups (from the raw records, not from events) and copied into notifications when it happens.
 */
export function keptVerbs(): EventVerb[] {
  return [...new Set<EventVerb>([...activityVerbs(), "user.followed", "user.messages_read"])];
}

/** How long raw events stay before `pruneEvents` may delete them. */
export const eventRetentionDays = 400;

/**
 * Deletes events older than `before` (default: the retention window) in batches of `batchSize`,
 * each its own statement so no lock is held long; answers how many went. Idempotent: run it
 * again and it deletes what has aged since.
 */
export async function pruneEvents(
  db: Executor,
  options: { before?: Date; batchSize?: number; now?: Date } = {},
): Promise<{ deleted: number }> {
  const now = options.now ?? new Date();
  const before = options.before ?? new Date(now.getTime() - eventRetentionDays * 86_400_000);
  const batchSize = options.batchSize ?? 5_000;
  let deleted = 0;
  for (;;) {
    const batch = db
      .select({ id: events.id })
      .from(events)
      .where(and(lt(events.createdAt, before), notInArray(events.verb, keptVerbs())))
      .limit(batchSize);
    const gone = await db.delete(events).where(inArray(events.id, batch)).returning({ id: events.id });
    deleted += gone.length;
    if (gone.length < batchSize) return { deleted };
  }
}

/** Today's Asia/Shanghai day and the one `days` before it, as a range (the admin commands' default). */
export function lastDays(days: number, now: Date = new Date()): DayRange {
  return { from: shanghaiDay(new Date(now.getTime() - (days - 1) * 86_400_000)), to: shanghaiDay(now) };
}
