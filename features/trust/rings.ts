import { sql } from "drizzle-orm";
import type { Executor } from "../../server/db/client.ts";
import { trustRings } from "../../server/db/schema/index.ts";
import { selectRows } from "./rows.ts";

/*
 * Rings: small groups of accounts that like, follow and tip each other far more than anyone else,
 * or that share a device cookie, sign-up address or payout account and act on each other. The
 * nightly `find-rings` job (features/trust/jobs.ts) runs `findRings` over the last 30 days:
 *
 * 1. every interaction between two accounts: likes on the other's content, follows, tips;
 * 2. edges: two accounts that each gave the other at least `mutualMinimum` interactions, and two
 *    linked accounts (shared device, sign-up address or payout account) with any interaction;
 * 3. groups: the connected parts of those edges, of 2 to `maxRingSize` accounts;
 * 4. a group is a ring when its members gave at least `insideShareMinimum` of all they gave inside
 *    it and it has at least 3 members, or when two of its members are linked.
 *
 * Each ring is kept once per set of members (`member_key`): found again, its evidence is renewed and
 * a dismissal stands.
 */

export const ringWindowDays = 30;
export const mutualMinimum = 2;
export const insideShareMinimum = 0.6;
export const maxRingSize = 20;

export interface PairEvidence {
  from: number;
  to: number;
  likes: number;
  follows: number;
  tips: number;
}

export interface SharedEvidence {
  kind: "device" | "signup_address" | "payout_account";
  /** A short, staff-readable form of what is shared (a device hash's start, the address, a masked account). */
  value: string;
  users: number[];
}

export interface RingEvidence {
  windowDays: number;
  /** Interactions given inside the group over all the members gave. */
  insideShare: number;
  inside: number;
  given: number;
  pairs: PairEvidence[];
  shared: SharedEvidence[];
}

export interface FoundRing {
  memberIds: number[];
  evidence: RingEvidence;
}

interface InteractionRow {
  giver: number;
  receiver: number;
  likes: number;
  follows: number;
  tips: number;
}

async function interactions(db: Executor, since: Date): Promise<PairEvidence[]> {
  const from = since.toISOString();
  const rows = await selectRows<InteractionRow>(
    db,
    sql`select giver, receiver, sum(likes)::int as likes, sum(follows)::int as follows, sum(tips)::int as tips from (
        select r.user_id as giver, c.author_id as receiver, 1 as likes, 0 as follows, 0 as tips
          from reactions r join subject_counts c on c.subject_type = r.subject_type and c.subject_id = r.subject_id
          where r.kind = 'like' and r.created_at >= ${from} and c.author_id is not null and c.author_id <> r.user_id
        union all
        select follower_id, followee_id, 0, 1, 0 from follows where created_at >= ${from}
        union all
        select tipper_id, author_id, 0, 0, 1 from tips where created_at >= ${from} and tipper_id <> author_id
      ) i group by giver, receiver`,
  );
  return rows.map((row) => ({
    from: Number(row.giver),
    to: Number(row.receiver),
    likes: Number(row.likes),
    follows: Number(row.follows),
    tips: Number(row.tips),
  }));
}

interface SharedRow {
  kind: SharedEvidence["kind"];
  value: string;
  users: number[];
}

/** Every value two or more (at most 50) accounts share, with the accounts. */
async function sharedValues(db: Executor): Promise<SharedEvidence[]> {
  const rows = await selectRows<SharedRow>(
    db,
    sql`select 'device' as kind, left(device_hash, 10) as value, array_agg(distinct user_id order by user_id) as users
        from device_sightings group by device_hash having count(distinct user_id) between 2 and 50
      union all
      select 'signup_address', signup_address, array_agg(id order by id)
        from users where signup_address is not null and signup_address <> '' group by signup_address having count(*) between 2 and 50
      union all
      select 'payout_account', provider || ':' || left(alipay_account, 3) || '***', array_agg(user_id order by user_id)
        from payout_accounts group by provider, alipay_account having count(*) between 2 and 50`,
  );
  return rows.map((row) => ({ kind: row.kind, value: row.value, users: row.users.map(Number) }));
}

const total = (pair: PairEvidence) => pair.likes + pair.follows + pair.tips;

/** Finds the rings of the last `ringWindowDays` days (pure reading; `saveRings` keeps them). */
export async function findRings(db: Executor, now = new Date()): Promise<FoundRing[]> {
  const pairs = await interactions(db, new Date(now.getTime() - ringWindowDays * 86_400_000));
  const shared = await sharedValues(db);
  const given = new Map<number, number>();
  const byPair = new Map<string, PairEvidence>();
  for (const pair of pairs) {
    given.set(pair.from, (given.get(pair.from) ?? 0) + total(pair));
    byPair.set(`${pair.from}>${pair.to}`, pair);
  }
  const amount = (a: number, b: number) => {
    const pair = byPair.get(`${a}>${b}`);
    return pair ? total(pair) : 0;
  };

  // Union-find over the edges.
  const parent = new Map<number, number>();
  const root = (x: number): number => {
    let r = x;
    while (parent.has(r) && parent.get(r) !== r) r = parent.get(r)!;
    parent.set(x, r);
    return r;
  };
  const join = (a: number, b: number) => {
    const ra = root(a);
    const rb = root(b);
    if (ra !== rb) parent.set(ra, rb);
  };
  for (const pair of pairs) {
    if (pair.from < pair.to && amount(pair.from, pair.to) >= mutualMinimum && amount(pair.to, pair.from) >= mutualMinimum) {
      join(pair.from, pair.to);
    }
  }
  const linkedPairs = new Set<string>();
  for (const value of shared) {
    for (const a of value.users) {
      for (const b of value.users) {
        if (a < b && (amount(a, b) > 0 || amount(b, a) > 0)) {
          join(a, b);
          linkedPairs.add(`${a}-${b}`);
        }
      }
    }
  }

  const groups = new Map<number, number[]>();
  for (const member of parent.keys()) {
    const r = root(member);
    groups.set(r, [...(groups.get(r) ?? []), member]);
  }

  const rings: FoundRing[] = [];
  for (const members of groups.values()) {
    if (members.length < 2 || members.length > maxRingSize) continue;
    members.sort((a, b) => a - b);
    const set = new Set(members);
    const insidePairs = pairs.filter((pair) => set.has(pair.from) && set.has(pair.to));
    const inside = insidePairs.reduce((sum, pair) => sum + total(pair), 0);
    const givenByMembers = members.reduce((sum, member) => sum + (given.get(member) ?? 0), 0);
    const insideShare = givenByMembers === 0 ? 0 : inside / givenByMembers;
    const linked = members.some((a) => members.some((b) => linkedPairs.has(`${a}-${b}`)));
    const concentrated = members.length >= 3 && insideShare >= insideShareMinimum;
    if (!concentrated && !linked) continue;
    rings.push({
      memberIds: members,
      evidence: {
        windowDays: ringWindowDays,
        insideShare: Math.round(insideShare * 1000) / 1000,
        inside,
        given: givenByMembers,
        pairs: insidePairs.sort((a, b) => a.from - b.from || a.to - b.to),
        shared: shared
          .map((value) => ({ ...value, users: value.users.filter((user) => set.has(user)) }))
          .filter((value) => value.users.length >= 2),
      },
    });
  }
  return rings.sort((a, b) => a.memberIds[0]! - b.memberIds[0]!);
}

/** Keeps the rings found: new ones open, known ones renewed (a dismissal stands). Returns how many were new. */
export async function saveRings(db: Executor, rings: FoundRing[], now = new Date()): Promise<number> {
  let added = 0;
  for (const ring of rings) {
    const [row] = await db
      .insert(trustRings)
      .values({ memberKey: ring.memberIds.join(","), memberIds: ring.memberIds, evidence: ring.evidence, foundAt: now, lastFoundAt: now })
      .onConflictDoUpdate({ target: trustRings.memberKey, set: { evidence: ring.evidence, lastFoundAt: now } })
      .returning({ foundAt: trustRings.foundAt });
    if (row && row.foundAt.getTime() === now.getTime()) added += 1;
  }
  return added;
}
