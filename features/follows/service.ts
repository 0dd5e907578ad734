import { and, count, desc, eq, sql } from "drizzle-orm";
import type { Database, Executor } from "../../server/db/client.ts";
import { preparedQuery } from "../../server/lib/prepared.ts";
import { keyedMemory } from "../../server/lib/keyed-memory.ts";
import { events, follows, users } from "../../server/db/schema/index.ts";
import { AppError } from "../../common/app-error.ts";
import { assertDailyAllowance } from "../trust/limits.ts";
import { judgeAction } from "../trust/verdicts.ts";
import { inTransaction, type ServiceOptions } from "../../server/lib/transactions.ts";
import { emit } from "../events/bus.ts";
import type { EventVerb } from "../events/catalogue.ts";
import { userTag } from "../../server/lib/cache-tags.ts";

export interface FollowState {
  following: boolean;
  followersCount: number;
  followingCount: number;
}

export interface FollowCounts {
  followers: number;
  following: number;
}

async function findTarget(db: Executor, username: string): Promise<{ id: number }> {
  const [target] = await db
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.username}) = ${username.toLowerCase()}`);
  if (!target) throw new AppError("no_follow_target");
  return target;
}

/**
 * Follows `username`. The (follower, followee) key makes a repeat, or two at once, one row; only
 * the follow that inserts it records `user.followed` and raises the followee's unread follow
 * counter, in the same transaction. Errors: `no_follow_target` (404), `cannot_follow_self` (400).
 */
export async function followUser(options: ServiceOptions, followerId: number, username: string): Promise<FollowState> {
  return inTransaction(options, async (tx) => {
    const target = await findTarget(tx.db, username);
    if (target.id === followerId) throw new AppError("cannot_follow_self");
    await assertDailyAllowance(tx.db, followerId, "follow");
    const [inserted] = await tx.db
      .insert(follows)
      .values({ followerId, followeeId: target.id })
      .onConflictDoNothing()
      .returning({ followeeId: follows.followeeId });
    if (inserted) {
      await judgeAction(tx.db, { action: "follow", actorId: followerId, receiverId: target.id, subjectType: "user", subjectId: target.id });
      await emit(tx, { actorId: followerId, verb: "user.followed", subjectId: target.id, data: {}, recipientIds: [target.id] });
      tx.invalidate(userTag(target.id), userTag(followerId), followeesTag(followerId));
    }
    const counts = await followCounts(tx.db, target.id);
    return { following: true, followersCount: counts.followers, followingCount: counts.following };
  });
}

/** Unfollows `username` (a no-op when not following). Errors: `no_follow_target` (404), `cannot_unfollow_self` (400). */
export async function unfollowUser(options: ServiceOptions, followerId: number, username: string): Promise<FollowState> {
  return inTransaction(options, async (tx) => {
    const target = await findTarget(tx.db, username);
    if (target.id === followerId) throw new AppError("cannot_unfollow_self");
    const [deleted] = await tx.db
      .delete(follows)
      .where(and(eq(follows.followerId, followerId), eq(follows.followeeId, target.id)))
      .returning({ followeeId: follows.followeeId });
    if (deleted) {
      await emit(tx, { actorId: followerId, verb: "user.unfollowed", subjectId: target.id, data: {} });
      tx.invalidate(userTag(target.id), userTag(followerId), followeesTag(followerId));
    }
    const counts = await followCounts(tx.db, target.id);
    return { following: false, followersCount: counts.followers, followingCount: counts.following };
  });
}

const followeesQuery = preparedQuery((db) =>
  db
    .select({ followeeId: follows.followeeId })
    .from(follows)
    .where(eq(follows.followerId, sql.placeholder("follower")))
    .prepare("follows_followees_of"),
);

/**
 * Whom a user follows, remembered between requests (every reading page and profile asks whether
 * the viewer follows someone). Following and unfollowing invalidate `followeesTag(userId)`.
 */
const followees = keyedMemory<ReadonlySet<number>>("followees", { ttlMs: 60_000, maxEntries: 20_000 });

/** The tag a follow or unfollow by `userId` invalidates. */
export const followeesTag = (userId: number): string => followees.tag(userId);

export async function followeesOf(db: Database | Executor, userId: number): Promise<ReadonlySet<number>> {
  return followees.read(
    db,
    userId,
    async () => new Set((await followeesQuery(db).execute({ follower: userId })).map((row) => row.followeeId)),
  );
}

/** Counted from the follows rows themselves, so they cannot drift from them. */
export async function followCounts(db: Database | Executor, userId: number): Promise<FollowCounts> {
  const [[followers], [following]] = await Promise.all([
    db.select({ value: count() }).from(follows).where(eq(follows.followeeId, userId)),
    db.select({ value: count() }).from(follows).where(eq(follows.followerId, userId)),
  ]);
  return { followers: followers?.value ?? 0, following: following?.value ?? 0 };
}

export async function isFollowing(db: Database | Executor, followerId: number, followeeId: number): Promise<boolean> {
  return (await followeesOf(db, followerId)).has(followeeId);
}

export interface NewFollower {
  username: string;
  nickname: string;
  avatar: string | null;
  followedAt: Date;
  /** Still following now (they may have unfollowed since). */
  stillFollowing: boolean;
}

/**
 * The like-and-follow message category: who followed this user, newest first (from the events),
 * each follower once (following again after unfollowing does not list them twice).
 */
export async function listNewFollowers(db: Database, userId: number, limit = 50): Promise<NewFollower[]> {
  const rows = await db
    .select({
      username: users.username,
      nickname: users.nickname,
      avatar: users.avatarSmall,
      followedAt: events.createdAt,
      stillFollowing: sql<boolean>`${follows.followerId} is not null`,
    })
    .from(events)
    .innerJoin(users, eq(users.id, events.actorId))
    .leftJoin(follows, and(eq(follows.followerId, events.actorId), eq(follows.followeeId, userId)))
    .where(and(eq(events.verb, "user.followed" satisfies EventVerb), eq(events.subjectType, "user"), eq(events.subjectId, userId)))
    .orderBy(desc(events.createdAt), desc(events.id))
    .limit(limit * 2);
  const seen = new Set<string>();
  const unique = rows.filter((row) => !seen.has(row.username) && seen.add(row.username));
  return unique.slice(0, limit).map((row) => ({ ...row, stillFollowing: Boolean(row.stillFollowing) }));
}
