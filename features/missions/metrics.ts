import { sql, type SQL } from "drizzle-orm";
import type { Executor } from "../../server/db/client.ts";
import { shanghaiDay } from "../../common/locale.ts";
import type { MissionPeriod } from "./periods.ts";

/*
 * The counting rules missions measure progress with. Each reads the typed event log, the standing
 * state tables or the daily rollups for one period, never anything a client says; outcomes that
 * other people give (likes, accepted answers, unlocks) count only from people the rule accepts
 * (`countedBetween`), so alt accounts farming each other make no progress.
 */

export const missionMetrics = [
  "checkins",
  "writings_published",
  "answers_posted",
  "answers_accepted",
  "likers",
  "entry_edits_kept",
  "new_writing_reads",
  "piece_unlockers",
] as const;
export type MissionMetric = (typeof missionMetrics)[number];

/** A giver's account must be this old when it gives, for the outcome to count. */
export const giverMinimumAgeDays = 7;
/** An encyclopedia edit counts once it has stood this long without being reverted by someone else. */
const editStandsMs = 24 * 3_600_000;

/**
 * Whether an outcome `giver` gave `receiver` at `at` counts: someone else, whose account was at
 * least 7 days old then, and who never signed in from an address the receiver signed in from
 * (the signature of alt accounts run from one machine or one script).
 */
function countedBetween(giver: SQL, receiver: SQL, at: SQL): SQL {
  return sql`(${giver} is not null and ${giver} <> ${receiver}
    and exists (select 1 from users g where g.id = ${giver}
      and g.created_at <= ${at} - make_interval(days => ${giverMinimumAgeDays}))
    and not exists (select 1 from known_login_ips ga join known_login_ips ra on ra.ip = ga.ip
      where ga.user_id = ${giver} and ra.user_id = ${receiver}))`;
}

function forUser(column: SQL, userId: number | null): SQL {
  return userId === null ? sql`true` : sql`${column} = ${userId}`;
}

function query(metric: MissionMetric, period: MissionPeriod, userId: number | null, now: Date): SQL {
  const from = period.start.toISOString();
  const to = period.end.toISOString();
  switch (metric) {
    case "checkins":
      return sql`select user_id, count(*) as progress from checkins
        where not made_up and day >= ${shanghaiDay(period.start)} and day < ${shanghaiDay(period.end)} and ${forUser(sql`user_id`, userId)}
        group by user_id`;
    case "writings_published":
      // Published in the period and still there: publishing and deleting again and again counts nothing.
      return sql`select e.actor_id as user_id, count(distinct e.subject_id) as progress
        from events e join writings w on w.id = e.subject_id and w.author_id = e.actor_id
        where e.verb = 'writing.published' and e.created_at >= ${from} and e.created_at < ${to} and ${forUser(sql`e.actor_id`, userId)}
        group by e.actor_id`;
    case "answers_posted":
      // Answers that still exist, on someone else's question.
      return sql`select e.actor_id as user_id, count(distinct e.subject_id) as progress
        from events e join answers a on a.id = e.subject_id and a.author_id = e.actor_id
          join questions q on q.id = a.question_id and q.author_id <> e.actor_id
        where e.verb = 'answer.created' and e.created_at >= ${from} and e.created_at < ${to} and ${forUser(sql`e.actor_id`, userId)}
        group by e.actor_id`;
    case "answers_accepted":
      // Accepted in the period, still accepted now, by an asker the rule counts.
      return sql`select a.author_id as user_id, count(distinct a.id) as progress
        from events e join answers a on a.id = e.subject_id join questions q on q.id = a.question_id and q.accepted_answer_id = a.id
        where e.verb = 'answer.accepted' and e.created_at >= ${from} and e.created_at < ${to} and ${forUser(sql`a.author_id`, userId)}
          and ${countedBetween(sql`e.actor_id`, sql`a.author_id`, sql`e.created_at`)}
        group by a.author_id`;
    case "likers":
      // Distinct people whose like (standing now, given in the period) is on one's content.
      return sql`select c.author_id as user_id, count(distinct r.user_id) as progress
        from reactions r join subject_counts c on c.subject_type = r.subject_type and c.subject_id = r.subject_id
        where r.kind = 'like' and r.created_at >= ${from} and r.created_at < ${to} and c.author_id is not null
          and ${forUser(sql`c.author_id`, userId)} and ${countedBetween(sql`r.user_id`, sql`c.author_id`, sql`r.created_at`)}
        group by c.author_id`;
    case "entry_edits_kept": {
      // An edit completes when it has stood 24 hours without another person reverting the entry.
      const shift = (moment: Date) => new Date(moment.getTime() - editStandsMs).toISOString();
      const ripe = new Date(Math.min(period.end.getTime(), now.getTime()));
      return sql`select e.actor_id as user_id, count(*) as progress
        from events e join encyclopedia_entries x on x.id = e.subject_id
        where e.verb = 'entry.edited' and e.subject_type = 'entry' and e.data->>'revertOf' is null
          and e.created_at >= ${shift(period.start)} and e.created_at < ${shift(ripe)} and ${forUser(sql`e.actor_id`, userId)}
          and not exists (select 1 from events r where r.verb = 'entry.edited' and r.subject_type = 'entry'
            and r.subject_id = e.subject_id and r.actor_id is distinct from e.actor_id and r.data->>'revertOf' is not null
            and r.created_at > e.created_at and r.created_at <= e.created_at + interval '24 hours')
        group by e.actor_id`;
    }
    case "new_writing_reads":
      // Valid reads (the rollups: no bots, no repeats) in the period of the best writing published in it.
      return sql`select author_id as user_id, max(reads) as progress from (
          select w.author_id, w.id, coalesce(sum(s.reads), 0) as reads
          from writings w left join daily_stats s on s.subject_type = 'writing' and s.subject_id = w.id
            and s.day >= ${shanghaiDay(period.start)} and s.day < ${shanghaiDay(period.end)}
          where w.published_at >= ${from} and w.published_at < ${to} and ${forUser(sql`w.author_id`, userId)}
          group by w.author_id, w.id) per_writing
        group by author_id`;
    case "piece_unlockers":
      // The pay-to-view piece unlocked by the most counted readers in the period, refunds excluded.
      return sql`select author_id as user_id, max(readers) as progress from (
          select (e.data->>'authorId')::int as author_id, e.subject_id, count(distinct e.actor_id) as readers
          from events e
          where e.verb = 'unlock.purchased' and e.created_at >= ${from} and e.created_at < ${to}
            and ${forUser(sql`(e.data->>'authorId')::int`, userId)}
            and ${countedBetween(sql`e.actor_id`, sql`(e.data->>'authorId')::int`, sql`e.created_at`)}
            and not exists (select 1 from events r where r.verb = 'unlock.refunded' and r.subject_type = 'writing'
              and r.subject_id = e.subject_id and r.data->>'unlockId' = e.data->>'unlockId')
          group by 1, 2) per_piece
        group by author_id`;
  }
}

/** Progress on `metric` in `period` by user: one user's, or (`userId` null) everyone's with any. */
export async function measureProgress(
  db: Executor,
  metric: MissionMetric,
  period: MissionPeriod,
  userId: number | null,
  now: Date,
): Promise<Map<number, number>> {
  const result = await db.execute(query(metric, period, userId, now));
  const rows = (result as unknown as { rows: { user_id: number | string; progress: number | string }[] }).rows;
  return new Map(rows.map((row) => [Number(row.user_id), Number(row.progress)]));
}
