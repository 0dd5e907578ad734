import { sql, type SQL } from "drizzle-orm";
import type { Executor } from "../../server/db/client.ts";
import { linkedSql } from "./linked.ts";
import { selectRows } from "./rows.ts";

/*
 * The standing score (`users.intelligence_score`, spec §3): what others did with one's work,
 * computed for every account by the nightly `intelligence-scores` job. The formula is data: the
 * weights below, written out on docs/features/trust.md and in the hover text of every score shown.
 *
 *   score = max(0, 2 × (likes − dislikes received) + 1 × favourites received
 *                  + 10 × answers accepted + 5 × encyclopedia edits kept + 3 × reports upheld
 *                  − 10 × own content hidden − 2 × reports rejected)
 *
 * Received likes, dislikes, favourites and acceptances count only from others the counting rules
 * accept: not oneself, not a linked account (shared device, sign-up address or payout account),
 * not a fellow member of an open ring, and for likes not one whose verdict was "not counted".
 */

export const scoreWeights = {
  likes: 2,
  favorites: 1,
  answersAccepted: 10,
  editsKept: 5,
  reportsUpheld: 3,
  contentHidden: -10,
  reportsRejected: -2,
} as const;

/** Whether something `giver` gave `receiver` counts towards the receiver's standing. */
function accepted(giver: SQL, receiver: SQL): SQL {
  return sql`(${giver} <> ${receiver} and not ${linkedSql(giver, receiver)}
    and not exists (select 1 from trust_rings tr where tr.status = 'open' and ${giver} = any(tr.member_ids) and ${receiver} = any(tr.member_ids)))`;
}

/** The score's parts for every account that has any, as one query (`user_id` and each part). */
function partsQuery(): SQL {
  return sql`
    with likes as (
      select c.author_id as user_id, sum(case when r.kind = 'like' then 1 else -1 end) as n
      from reactions r join subject_counts c on c.subject_type = r.subject_type and c.subject_id = r.subject_id
      where c.author_id is not null and ${accepted(sql`r.user_id`, sql`c.author_id`)}
        and not exists (select 1 from trust_verdicts v where v.action = 'like' and v.actor_id = r.user_id
          and v.subject_type = r.subject_type and v.subject_id = r.subject_id)
      group by c.author_id),
    favorites_received as (
      select c.author_id as user_id, count(distinct (f.user_id, f.subject_type, f.subject_id)) as n
      from favorites f join subject_counts c on c.subject_type = f.subject_type and c.subject_id = f.subject_id
      where c.author_id is not null and ${accepted(sql`f.user_id`, sql`c.author_id`)}
      group by c.author_id),
    answers_accepted as (
      select a.author_id as user_id, count(*) as n
      from questions q join answers a on a.id = q.accepted_answer_id
      where ${accepted(sql`q.author_id`, sql`a.author_id`)}
      group by a.author_id),
    edits_kept as (
      select e.actor_id as user_id, count(*) as n
      from events e join encyclopedia_entries x on x.id = e.subject_id
      where e.verb = 'entry.edited' and e.subject_type = 'entry' and e.data->>'revertOf' is null
        and e.created_at < now() - interval '24 hours'
        and not exists (select 1 from events r where r.verb = 'entry.edited' and r.subject_type = 'entry'
          and r.subject_id = e.subject_id and r.actor_id is distinct from e.actor_id and r.data->>'revertOf' is not null
          and r.created_at > e.created_at and r.created_at <= e.created_at + interval '24 hours')
      group by e.actor_id),
    reports_decided as (
      select r.reporter_id as user_id,
        count(*) filter (where mc.decision in ('hide', 'delete')) as upheld,
        count(*) filter (where mc.decision = 'dismiss') as rejected
      from reports r join moderation_cases mc on mc.id = r.case_id
      where mc.status = 'decided'
      group by r.reporter_id),
    hidden as (
      select author_id as user_id, count(*) as n from moderation_cases
      where status = 'decided' and decision in ('hide', 'delete') and author_id is not null
      group by author_id)
    select u.id as user_id,
      coalesce(l.n, 0)::int as likes, coalesce(f.n, 0)::int as favorites, coalesce(a.n, 0)::int as answers_accepted,
      coalesce(e.n, 0)::int as edits_kept, coalesce(rd.upheld, 0)::int as reports_upheld,
      coalesce(rd.rejected, 0)::int as reports_rejected, coalesce(h.n, 0)::int as content_hidden
    from users u
      left join likes l on l.user_id = u.id
      left join favorites_received f on f.user_id = u.id
      left join answers_accepted a on a.user_id = u.id
      left join edits_kept e on e.user_id = u.id
      left join reports_decided rd on rd.user_id = u.id
      left join hidden h on h.user_id = u.id`;
}

export interface ScoreParts {
  likes: number;
  favorites: number;
  answersAccepted: number;
  editsKept: number;
  reportsUpheld: number;
  contentHidden: number;
  reportsRejected: number;
}

export function scoreOf(parts: ScoreParts): number {
  const w = scoreWeights;
  const total =
    w.likes * parts.likes +
    w.favorites * parts.favorites +
    w.answersAccepted * parts.answersAccepted +
    w.editsKept * parts.editsKept +
    w.reportsUpheld * parts.reportsUpheld +
    w.contentHidden * parts.contentHidden +
    w.reportsRejected * parts.reportsRejected;
  return Math.max(0, total);
}

interface PartsRow {
  user_id: number;
  likes: number;
  favorites: number;
  answers_accepted: number;
  edits_kept: number;
  reports_upheld: number;
  reports_rejected: number;
  content_hidden: number;
}

/** One account's parts (for the admin user page and tests). */
export async function scoreParts(db: Executor, userId: number): Promise<ScoreParts> {
  const [row] = await selectRows<PartsRow>(db, sql`select * from (${partsQuery()}) p where p.user_id = ${userId}`);
  return toParts(row);
}

function toParts(row: PartsRow | undefined): ScoreParts {
  return {
    likes: Number(row?.likes ?? 0),
    favorites: Number(row?.favorites ?? 0),
    answersAccepted: Number(row?.answers_accepted ?? 0),
    editsKept: Number(row?.edits_kept ?? 0),
    reportsUpheld: Number(row?.reports_upheld ?? 0),
    contentHidden: Number(row?.content_hidden ?? 0),
    reportsRejected: Number(row?.reports_rejected ?? 0),
  };
}

/**
 * Recomputes every account's score in one statement, writing only the ones that changed; returns
 * how many changed. Idempotent: a second run changes nothing.
 */
export async function computeIntelligenceScores(db: Executor): Promise<number> {
  const w = scoreWeights;
  const rows = await selectRows<{ id: number }>(
    db,
    sql`with parts as (${partsQuery()}),
      scores as (select user_id, greatest(0, ${w.likes} * likes + ${w.favorites} * favorites + ${w.answersAccepted} * answers_accepted
        + ${w.editsKept} * edits_kept + ${w.reportsUpheld} * reports_upheld + ${w.contentHidden} * content_hidden
        + ${w.reportsRejected} * reports_rejected)::int as score from parts)
    update users set intelligence_score = s.score from scores s
    where users.id = s.user_id and users.intelligence_score <> s.score
    returning users.id`,
  );
  return rows.length;
}
