import { sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn, AnyPgTable } from "drizzle-orm/pg-core";
import type { FeedCursor, FeedScope } from "./registry.ts";

/**
 * A kind's share of the keyset condition "after the cursor" in the feed's order (newest or hottest
 * first, then id, then kind, all descending): the kind's rows with the cursor's own key but a
 * kind sorting before the cursor's still follow it. Two columns only, so the kind's index range
 * (time or score, id) serves it.
 */
export function afterCursor(
  kind: string,
  key: { time: AnyPgColumn | SQL; score: AnyPgColumn | SQL; id: AnyPgColumn | SQL },
  cursor: FeedCursor | null,
  hot: boolean,
): SQL | undefined {
  if (!cursor) return undefined;
  const inclusive = kind < cursor.kind;
  const compare = inclusive ? sql.raw("<=") : sql.raw("<");
  if (hot) {
    if (!("score" in cursor)) return undefined;
    return sql`(${key.score}, ${key.id}) ${compare} (${cursor.score}::float8, ${cursor.id}::integer)`;
  }
  if (!("time" in cursor)) return undefined;
  return sql`(${key.time}, ${key.id}) ${compare} (timestamptz 'epoch' + ${cursor.time}::bigint * interval '1 microsecond', ${cursor.id}::integer)`;
}

/** Followed users of `followerId` (a subquery of ids). */
export const followedUsers = (followerId: number): SQL => sql`select followee_id from follows where follower_id = ${followerId}`;

/** Circles `followerId` joined (a subquery of ids). */
export const joinedCircles = (followerId: number): SQL => sql`select circle_id from circle_members where user_id = ${followerId}`;

/** Microseconds since the epoch as digits: the time cursor (JavaScript dates drop microseconds). */
export const microsOf = (column: AnyPgColumn | SQL): SQL<string> => sql<string>`(extract(epoch from ${column}) * 1000000)::bigint::text`;

/**
 * Follow's share of one kind: for each key (each followed user's id, each joined circle's id…) its
 * newest `limit` rows meeting `where`, read straight from that key's index range by a lateral
 * subquery (no second look-up by id), then the newest `limit` of them all, as the feed's
 * candidate columns `kind, id, at, score`. `columns` selects `id`, `at` and `score` from `table`.
 */
export function followedNewest(options: {
  kind: string;
  table: AnyPgTable;
  columns: SQL;
  order: SQL;
  where: SQL | undefined;
  by: { column: AnyPgColumn; keys: SQL }[];
  limit: number;
}): SQL {
  const { kind, table, columns, order, where, limit } = options;
  const ranges = options.by.map(
    ({ column, keys }) => sql`
    select picked.* from unnest(array(${keys})) as keyed(key)
    cross join lateral (
      select ${columns} from ${table}
      where ${column} = keyed.key${where ? sql` and ${where}` : sql``}
      order by ${order}
      limit ${limit}
    ) as picked`,
  );
  return sql`(select ${kind}::text as kind, followed.id, followed.at, followed.score from (
    ${sql.join(ranges, sql` union `)}
  ) as followed order by followed.at desc, followed.id desc limit ${limit})`;
}

/**
 * One kind's candidates from a table of authored content in circles (writings, books, questions):
 * its newest or hottest rows matching `where` (an index range), or, for Follow, the newest of
 * followed authors and joined circles (`followedNewest`).
 */
export function authoredCandidates(options: {
  kind: string;
  table: AnyPgTable;
  columns: { id: AnyPgColumn; at: AnyPgColumn; score: AnyPgColumn; authorId: AnyPgColumn; circleId: AnyPgColumn };
  where: SQL | undefined;
  scope: FeedScope;
}): SQL {
  const { kind, table, where, scope } = options;
  const { id, at, score, authorId, circleId } = options.columns;
  const newest = sql`${at} desc, ${id} desc`;
  if (scope.followerId === null) {
    const order = scope.tab === "hot" ? sql`${score} desc, ${id} desc` : newest;
    return sql`(select ${kind}::text as kind, ${id} as id, ${at} as at, ${score} as score from ${table} where ${where} order by ${order} limit ${scope.limit})`;
  }
  return followedNewest({
    kind,
    table,
    columns: sql`${id} as id, ${at} as at, ${score} as score`,
    order: newest,
    where,
    by: [
      { column: authorId, keys: followedUsers(scope.followerId) },
      { column: circleId, keys: joinedCircles(scope.followerId) },
    ],
    limit: scope.limit,
  });
}
