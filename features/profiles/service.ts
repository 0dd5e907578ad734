import { and, eq, sql } from "drizzle-orm";
import type { Database } from "../../server/db/client.ts";
import { books, sessions, users, writings } from "../../server/db/schema/index.ts";
import { AppError } from "../../common/app-error.ts";
import { inTransaction, type ServiceOptions } from "../../server/lib/transactions.ts";
import { createSession, getUser, hashToken, revokeSessionsOf, type ClientInfo, type User } from "../accounts/service.ts";
import { hashPassword, verifyPassword } from "../accounts/passwords.server.ts";
import { recordLoginSuccess, reserveLoginAttempt } from "../accounts/throttle.server.ts";
import { forgetSessionsOf } from "../accounts/session-cache.server.ts";
import { deleteAttachment, fileIdOfUrl, storeImage, type AttachmentOptions } from "../attachments/service.ts";
import { followCounts, isFollowing } from "../follows/service.ts";
import { adornmentsOf, type Adornments } from "../shop/service.ts";
import { getCheckinStatus, type CheckinStatus } from "../checkins/service.ts";
import { receivedLikes } from "../reactions/service.ts";
import type { PasswordChangeInput, ProfileUpdate } from "./schema.ts";
import { emit } from "../events/bus.ts";
import { schoolsTag, userTag } from "../../server/lib/cache-tags.ts";

/** Avatar sizes: the profile page (and its 2× screens) and the header. */
export const avatarSizes = { profile: 256, header: 64 } as const;

const columnOf = {
  nickname: "nickname",
  signature: "signature",
  self_description: "selfDescription",
  gender: "gender",
  birthday: "birthday",
  country: "country",
  school: "school",
  profession: "profession",
  hogwarts_school: "hogwartsSchool",
} as const satisfies Record<keyof ProfileUpdate, keyof User>;

/** Saves the given profile fields of the user (any subset), with a `user.profile_updated` event. */
export async function updateProfile(options: ServiceOptions, userId: number, input: ProfileUpdate): Promise<User> {
  const set: Partial<typeof users.$inferInsert> = {};
  for (const [field, value] of Object.entries(input) as [keyof ProfileUpdate, string | undefined][]) {
    if (value !== undefined) (set as Record<string, unknown>)[columnOf[field]] = value;
  }
  return inTransaction(options, async (tx) => {
    const [user] =
      Object.keys(set).length > 0
        ? await tx.db.update(users).set(set).where(eq(users.id, userId)).returning()
        : await tx.db.select().from(users).where(eq(users.id, userId));
    if (!user) throw new AppError("not_authenticated");
    if (Object.keys(set).length > 0) {
      await emit(tx, {
        actorId: userId,
        verb: "user.profile_updated",
        subjectId: userId,
        data: { fields: Object.keys(input) },
      });
      tx.invalidate(userTag(userId));
      // The school zone groups people by these two.
      if ("school" in set || "hogwartsSchool" in set) tx.invalidate(schoolsTag);
      // The nickname travels in the cached session viewer.
      // Every field may be in the auth answer remembered with the sessions: forget them all.
      if (Object.keys(set).length > 0) tx.afterCommit(() => forgetSessionsOf(userId));
    }
    return user;
  });
}

/**
 * Changes the password after checking the current one (wrong tries count like failed sign-ins, so
 * a stolen session cannot guess it quickly). Every session of the user ends, the one making the
 * change too (`currentToken`: whoever may have copied its token is out as well); that device gets
 * a new session, lasting as long as its old one was to, as on sign-in. Answers the new session.
 */
export async function changePassword(
  options: ServiceOptions,
  userId: number,
  input: PasswordChangeInput,
  client: ClientInfo,
  currentToken: string | undefined,
): Promise<{ token: string; persistent: boolean }> {
  const user = await getUser(options.db, userId);
  if (!user) throw new AppError("not_authenticated");
  const subject = { ip: client.ip, account: `user:${user.id}`, userId: user.id };
  // Counted as a failed sign-in until the password proves right, so guesses are throttled like logins.
  await reserveLoginAttempt(options.db, subject);
  if (!user.passwordHash || !(await verifyPassword(user.passwordHash, input.old_password))) {
    throw new AppError("wrong_old_password", { fields: { old_password: "errors:wrong_old_password" } });
  }
  await recordLoginSuccess({ db: options.db }, subject);
  const passwordHash = await hashPassword(input.password);
  return inTransaction(options, async (tx) => {
    const [current] = currentToken
      ? await tx.db
          .select({ persistent: sessions.persistent })
          .from(sessions)
          .where(and(eq(sessions.tokenHash, hashToken(currentToken)), eq(sessions.userId, userId)))
      : [];
    await tx.db.update(users).set({ passwordHash }).where(eq(users.id, userId));
    await emit(tx, { actorId: userId, verb: "user.password_changed", subjectId: userId, data: {} });
    await revokeSessionsOf({ db: options.db, tx }, userId);
    const persistent = current?.persistent ?? false;
    return { token: await createSession(tx.db, userId, persistent, client), persistent };
  });
}

/**
 * A new avatar from uploaded bytes (JPG or PNG up to 2 MB by magic bytes): re-encoded without
 * metadata as a square centre crop in the profile and header sizes. The previous avatar's files
 * are removed once the change has committed.
 */
export async function setAvatar(
  options: AttachmentOptions,
  userId: number,
  bytes: Buffer,
): Promise<{ avatar: string; avatarSmall: string }> {
  const large = await storeImage(options, { ownerId: userId, bytes, purpose: "avatar", square: avatarSizes.profile });
  const small = await storeImage(options, { ownerId: userId, bytes, purpose: "avatar_small", square: avatarSizes.header });
  await inTransaction(options, async (tx) => {
    const [before] = await tx.db
      .select({ avatar: users.avatar, avatarSmall: users.avatarSmall })
      .from(users)
      .where(eq(users.id, userId))
      .for("update");
    await tx.db.update(users).set({ avatar: large.url, avatarSmall: small.url }).where(eq(users.id, userId));
    await emit(tx, {
      actorId: userId,
      verb: "user.avatar_changed",
      subjectId: userId,
      data: { fileId: large.fileId },
    });
    tx.invalidate(userTag(userId));
    tx.afterCommit(async () => {
      forgetSessionsOf(userId);
      for (const old of [fileIdOfUrl(before?.avatar), fileIdOfUrl(before?.avatarSmall)])
        if (old) await deleteAttachment({ db: options.db, files: options.files }, old);
    });
  });
  return { avatar: large.url, avatarSmall: small.url };
}

export interface PublicProfile {
  user: User;
  followers: number;
  following: number;
  /** Reads of the user's writings and books (their view counts), and likes received on anything they wrote. */
  reads: number;
  likes: number;
  checkin: CheckinStatus;
  /** The badge and avatar frame from the shop the user wears. */
  adornments: Adornments;
  /** The signed-in viewer follows this user. */
  followedByViewer: boolean;
}

export async function findUserByUsername(db: Database, username: string): Promise<User | null> {
  if (username.length > 64) return null;
  const [user] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.username}) = ${username.toLowerCase()}`);
  return user ?? null;
}

/** What /profile/{username} and the personal centre show; null for an unknown user. */
export async function getProfileSummary(db: Database, user: User, viewerId: number | null, now: Date = new Date()): Promise<PublicProfile> {
  const [counts, checkin, followedByViewer, reads, likes, adornments] = await Promise.all([
    followCounts(db, user.id),
    getCheckinStatus(db, user.id, now),
    viewerId !== null && viewerId !== user.id ? isFollowing(db, viewerId, user.id) : Promise.resolve(false),
    readsOf(db, user.id),
    receivedLikes(db, user.id),
    adornmentsOf(db, user.id),
  ]);
  return { user, followers: counts.followers, following: counts.following, reads, likes, checkin, adornments, followedByViewer };
}

/** The views of the user's writings (each language version counts its own) and books. */
async function readsOf(db: Database, userId: number): Promise<number> {
  const [[fromWritings], [fromBooks]] = await Promise.all([
    db
      .select({ total: sql<number>`coalesce(sum(${writings.views}), 0)::int` })
      .from(writings)
      .where(eq(writings.authorId, userId)),
    db
      .select({ total: sql<number>`coalesce(sum(${books.views}), 0)::int` })
      .from(books)
      .where(eq(books.authorId, userId)),
  ]);
  return (fromWritings?.total ?? 0) + (fromBooks?.total ?? 0);
}

export { activityVerbs, listActivity, type ActivityItem, type ActivityVerb } from "./activity.ts";
