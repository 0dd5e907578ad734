import { createHash, randomBytes } from "node:crypto";
import { and, eq, gt, lt, or, sql } from "drizzle-orm";
import type { Database, Executor } from "../../server/db/client.ts";
import { sessions, signupCounts, unreadCounters, users } from "../../server/db/schema/index.ts";
import { AppError } from "../../common/app-error.ts";
import { decoyPasswordHash, hashPassword, verifyPassword } from "./passwords.server.ts";
import type { LoginInput, RegisterInput } from "./schema.ts";
import { loginAccountKey, recordLoginSuccess, rememberLoginAddress, reserveLoginAttempt } from "./throttle.server.ts";
import { consumeSolvedChallenge } from "../captcha/service.ts";
import {
  cachedSessionUser,
  cachedSessionViewer,
  forgetSession,
  forgetSessionsOf,
  rememberSessionUser,
  rememberSessionViewer,
} from "./session-cache.server.ts";
import { presentViewer, type Viewer } from "./viewer.ts";
import { inTransaction, type ServiceOptions } from "../../server/lib/transactions.ts";
import { emit } from "../events/bus.ts";

export type User = typeof users.$inferSelect;

export const sessionDurations = {
  /** "Stay signed in": 30 days. */
  persistentSeconds: 30 * 24 * 60 * 60,
  /** Without it the cookie ends with the browser; the server forgets an idle session after a day. */
  browserSessionSeconds: 24 * 60 * 60,
};

export interface ClientInfo {
  ip: string;
  userAgent: string;
}

export interface SignedIn {
  user: User;
  token: string;
  persistent: boolean;
}

const lowerEquals = (column: typeof users.username | typeof users.email, value: string) => sql`lower(${column}) = ${value.toLowerCase()}`;

export interface RegisterOptions {
  /** A solved slider puzzle is required (the CAPTCHA setting). */
  captcha: boolean;
  /** Accounts one address may create per hour. */
  signupsPerHour: number;
  /** The session this client had (its cookie), revoked once the new one exists. */
  replacing?: string;
}

/**
 * Creates the account, its counters, its place in the address's sign-up count, the address as one
 * it signed in from, its first session and the `user.registered` event in one transaction (the
 * password is hashed before it opens: hashing is slow).
 */
export async function registerUser(
  options: ServiceOptions,
  input: RegisterInput,
  client: ClientInfo,
  rules: RegisterOptions,
): Promise<SignedIn> {
  const db = options.tx?.db ?? options.db;
  if (rules.captcha) await consumeSolvedChallenge(db, input.captcha);
  await assertAvailable(db, input.username, input.email);
  const passwordHash = await hashPassword(input.password);
  let signedIn: SignedIn;
  try {
    signedIn = await inTransaction(options, async (tx) => {
      // Counted first: the row stays locked until this account is written or given up, so parallel
      // sign-ups from one address cannot pass the limit together, and a failed one counts nothing.
      await countSignup(tx.db, client.ip, rules.signupsPerHour);
      const [created] = await tx.db
        .insert(users)
        .values({
          username: input.username,
          nickname: input.username,
          email: input.email,
          passwordHash,
          gender: input.gender,
          birthday: input.birthday,
          country: input.country,
          signupAddress: client.ip,
        })
        .returning();
      const user = created!;
      await tx.db.insert(unreadCounters).values({ userId: user.id });
      await rememberLoginAddress(tx.db, user.id, client.ip);
      const token = await createSession(tx.db, user.id, false, client);
      await emit(tx, { actorId: user.id, verb: "user.registered", subjectId: user.id, data: {} });
      return { user, token, persistent: false };
    });
  } catch (error) {
    // Two registrations raced past the check above: report it as the check would have.
    if (isUniqueViolation(error)) await assertAvailable(options.db, input.username, input.email);
    throw error;
  }
  await revokeReplacedSession(options.db, rules.replacing);
  return signedIn;
}

export const signupWindowSeconds = 60 * 60;

/** One more account from this address in its hour, or `rate_limited` when that would pass the limit. */
async function countSignup(tx: Executor, ip: string, limit: number): Promise<void> {
  const windowEnded = sql`${signupCounts.windowStartedAt} <= now() - make_interval(secs => ${signupWindowSeconds})`;
  const [count] = await tx
    .insert(signupCounts)
    .values({ ip, signups: 1 })
    .onConflictDoUpdate({
      target: signupCounts.ip,
      set: {
        signups: sql`case when ${windowEnded} then 1 else ${signupCounts.signups} + 1 end`,
        windowStartedAt: sql`case when ${windowEnded} then now() else ${signupCounts.windowStartedAt} end`,
      },
    })
    .returning({ signups: signupCounts.signups, windowStartedAt: signupCounts.windowStartedAt });
  if (count!.signups > limit) {
    const seconds = Math.max(1, Math.ceil(signupWindowSeconds - (Date.now() - count!.windowStartedAt.getTime()) / 1000));
    throw new AppError("rate_limited", { params: { seconds } });
  }
}

/** Forgets sign-up counts whose hour has ended. */
export async function deleteStaleSignupCounts(db: Executor): Promise<void> {
  await db.delete(signupCounts).where(sql`${signupCounts.windowStartedAt} < now() - make_interval(secs => ${signupWindowSeconds})`);
}

async function assertAvailable(db: Executor, username: string, email: string): Promise<void> {
  const taken = await db
    .select({ username: users.username, email: users.email })
    .from(users)
    .where(or(lowerEquals(users.username, username), lowerEquals(users.email, email)));
  const usernameTaken = taken.some((row) => row.username.toLowerCase() === username.toLowerCase());
  const emailTaken = taken.some((row) => row.email?.toLowerCase() === email.toLowerCase());
  if (usernameTaken && emailTaken)
    throw new AppError("username_email_exist", { fields: { username: "errors:username_exists", email: "errors:email_exists" } });
  if (usernameTaken) throw new AppError("username_exists", { fields: { username: "errors:username_exists" } });
  if (emailTaken) throw new AppError("email_exists", { fields: { email: "errors:email_exists" } });
}

export interface LoginOptions {
  /** A solved slider puzzle is required (the CAPTCHA setting). */
  captcha: boolean;
  /** The session this client had (its cookie), revoked once the new one exists. */
  replacing?: string;
}

/** Password sign-in by username or email, after the slider puzzle, throttled per IP, account and pair. */
export async function logIn(db: Database, input: LoginInput, client: ClientInfo, options: LoginOptions): Promise<SignedIn> {
  if (options.captcha) await consumeSolvedChallenge(db, input.captcha);
  const user = await checkPassword(db, input.username, input.password, client);
  const token = await createSession(db, user.id, input.remember, client);
  await revokeReplacedSession(db, options.replacing);
  return { user, token, persistent: input.remember };
}

/**
 * The account named by username or email whose password this is, under the login throttle;
 * otherwise `invalid_credentials` (an unknown account costs the same time as a wrong password).
 */
export async function checkPassword(db: Database, login: string, password: string, client: ClientInfo): Promise<User> {
  const account = login.toLowerCase();
  const [user] = await db
    .select()
    .from(users)
    .where(or(lowerEquals(users.username, account), lowerEquals(users.email, account)))
    .limit(1);
  // Counted by the name as typed, existing or not, so the answers never tell which names exist.
  const subject = { ip: client.ip, account: loginAccountKey(account), userId: user?.id };
  try {
    // Counted as a failure before the (slow) password check, so parallel tries cannot outrun the count.
    await reserveLoginAttempt(db, subject);
  } catch (error) {
    // A refused try takes as long as a checked one, so the time of the answer tells nothing either.
    await verifyPassword(await decoyPasswordHash(), password);
    throw error;
  }
  const valid = await verifyPassword(user?.passwordHash ?? (await decoyPasswordHash()), password);
  if (!user || !valid) throw new AppError("invalid_credentials");
  await recordLoginSuccess({ db }, { ...subject, userId: user.id });
  return user;
}

/** Signing in again (or signing up) while signed in ends the session the client had. */
async function revokeReplacedSession(db: Database, token: string | undefined): Promise<void> {
  if (token) await logOut(db, token);
}

export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** A fresh random session id on every sign-in; only its hash is stored. */
export async function createSession(db: Executor, userId: number, persistent: boolean, client: ClientInfo): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  const seconds = persistent ? sessionDurations.persistentSeconds : sessionDurations.browserSessionSeconds;
  await db.insert(sessions).values({
    tokenHash: hashToken(token),
    userId,
    persistent,
    ip: client.ip,
    userAgent: client.userAgent.slice(0, 400),
    expiresAt: new Date(Date.now() + seconds * 1000),
  });
  return token;
}

/** The signed-in viewer for a session cookie, or null. Extends an idle browser session at most once a minute. */
export async function findSessionViewer(db: Database, token: string | undefined): Promise<Viewer | null> {
  if (!token || token.length > 100) return null;
  const tokenHash = hashToken(token);
  const cached = cachedSessionViewer(tokenHash);
  if (cached) return cached;
  const [row] = await db
    .select({
      user: {
        id: users.id,
        username: users.username,
        nickname: users.nickname,
        userType: users.userType,
        avatar: users.avatar,
        suspendedUntil: users.suspendedUntil,
        suspensionReason: users.suspensionReason,
      },
      persistent: sessions.persistent,
      expiresAt: sessions.expiresAt,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.tokenHash, tokenHash), gt(sessions.expiresAt, new Date())));
  if (!row) return null;
  if (!row.persistent) {
    const renewed = new Date(Date.now() + sessionDurations.browserSessionSeconds * 1000);
    if (renewed.getTime() - row.expiresAt.getTime() > 60_000) {
      await db.update(sessions).set({ expiresAt: renewed }).where(eq(sessions.tokenHash, tokenHash));
    }
  }
  const viewer = presentViewer(row.user);
  rememberSessionViewer(tokenHash, viewer);
  return viewer;
}

/**
 * The signed-in user's whole row for a session cookie, or null: remembered with the session lookup
 * for a moment (`cachedSessionUser`), so the auth call a client makes on every page costs no query.
 */
export async function findSessionUser(db: Database, token: string | undefined): Promise<User | null> {
  if (!token || token.length > 100) return null;
  const tokenHash = hashToken(token);
  // A remembered row lives in the session lookup's own entry: it is there only while that is.
  const known = cachedSessionUser<User>(tokenHash);
  if (known) return known;
  const viewer = await findSessionViewer(db, token);
  if (!viewer) return null;
  const user = await getUser(db, viewer.id);
  if (user) rememberSessionUser(tokenHash, user);
  return user;
}

/** The whole account, for the pages and calls that show its private fields and balances. */
export async function getUser(db: Database, id: number): Promise<User | null> {
  const [user] = await db.select().from(users).where(eq(users.id, id));
  return user ?? null;
}

/** Signs a user out everywhere (password reset, password change): every session row and every cached lookup. */
export async function revokeSessionsOf(options: ServiceOptions, userId: number, except?: string): Promise<void> {
  await inTransaction(options, async (tx) => {
    const keep = except ? hashToken(except) : undefined;
    await tx.db
      .delete(sessions)
      .where(keep ? and(eq(sessions.userId, userId), sql`${sessions.tokenHash} <> ${keep}`) : eq(sessions.userId, userId));
    tx.afterCommit(() => forgetSessionsOf(userId));
  });
}

export async function logOut(db: Database, token: string | undefined): Promise<void> {
  if (!token) return;
  const tokenHash = hashToken(token);
  forgetSession(tokenHash);
  await db.delete(sessions).where(eq(sessions.tokenHash, tokenHash));
}

export async function deleteExpiredSessions(db: Database): Promise<void> {
  await db.delete(sessions).where(lt(sessions.expiresAt, new Date()));
}

export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: string; cause?: { code?: string } })?.code ?? (error as { cause?: { code?: string } })?.cause?.code;
  return code === "23505";
}
