import { createHash } from "node:crypto";
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Database, Executor } from "../../server/db/client.ts";
import { knownLoginIps, loginFailures } from "../../server/db/schema/index.ts";
import { AppError } from "../../common/app-error.ts";
import { inTransaction, type ServiceOptions } from "../../server/lib/transactions.ts";
import { emit } from "../events/bus.ts";

/**
 * Login throttling that slows an attacker without locking the real user out:
 * - per IP: at most 30 failures in 15 minutes, then that IP waits for the window to end, except for
 *   accounts that have signed in from it before (people behind one NAT keep their access);
 * - per account and IP: after 5 failures, each next try from that IP waits 2^(n-5) s (at most 15 min;
 *   at most a minute from an address the account has signed in from before, so the owner is slowed
 *   there but never locked out);
 * - per account, existing or not (an unknown name must answer as an existing one does): after 100
 *   failures in an hour from anywhere, only IPs the account has signed in from before may keep
 *   trying, so a distributed attack cannot lock the owner out.
 *
 * Sign-in counts are kept per name as typed (`loginAccountKey`), never per account id: if a
 * username and its email shared one count, a name throttled through the other would answer 429
 * where an unknown one answers 401, telling which email belongs to an account.
 *
 * Every attempt first reserves its place in all three counts in one short transaction that locks
 * their rows (`reserveLoginAttempt`); the password is checked only after that, and a success gives
 * the reservation back. So concurrent attempts cannot all pass the check before any is counted.
 */
export const throttleLimits = {
  ipFailures: 30,
  ipWindowSeconds: 15 * 60,
  pairFreeFailures: 5,
  pairMaxDelaySeconds: 15 * 60,
  /** The longest wait between tries at an address the account has signed in from before. */
  knownPairMaxDelaySeconds: 60,
  pairWindowSeconds: 60 * 60,
  accountFailures: 100,
  accountWindowSeconds: 60 * 60,
};

export interface LoginSubject {
  ip: string;
  /** `loginAccountKey(name as typed)` for sign-in; `user:<id>` for checks of a signed-in user's password. */
  account: string;
  /** The account's user id when it exists. */
  userId: number | undefined;
}

/**
 * The count a typed username or email is throttled under, existing or not: a digest, so the keys
 * are plain ASCII whatever was typed (they compare in the database exactly as in here) and the
 * table keeps no typed names, which are sometimes passwords typed in the wrong field.
 */
export function loginAccountKey(login: string): string {
  return `name:${createHash("sha256").update(login.trim().toLowerCase()).digest("hex")}`;
}

const keys = (subject: LoginSubject) => ({
  ip: `ip:${subject.ip}`,
  pair: `pair:${subject.account}|${subject.ip}`,
  account: `account:${subject.account}`,
});

type FailureCount = typeof loginFailures.$inferSelect;

/**
 * Counts this attempt as a failure in the address, account+address and account counts, or throws
 * `too_many_attempts` (counting nothing) when one of them forbids another try now. Atomic per
 * count: the rows stay locked from the check to the increment.
 */
export async function reserveLoginAttempt(db: Database, subject: LoginSubject, now = new Date()): Promise<void> {
  const k = keys(subject);
  const known = await isKnownAddress(db, subject);
  await db.transaction(async (tx) => {
    const all = [k.ip, k.pair, k.account];
    await tx
      .insert(loginFailures)
      .values(all.map((key) => ({ key, failures: 0, windowStartedAt: now, lastFailureAt: now })))
      .onConflictDoNothing();
    const rows = await tx.select().from(loginFailures).where(inArray(loginFailures.key, all)).orderBy(loginFailures.key).for("update");
    const byKey = new Map(rows.map((row) => [row.key, row]));
    // Keys are ASCII (digests, addresses, ids), so each row inserted above is found again.
    if (all.some((key) => !byKey.has(key))) throw new AppError("bad_request");
    const wait = secondsToWait({ ip: byKey.get(k.ip), pair: byKey.get(k.pair), account: byKey.get(k.account) }, known, now);
    if (wait > 0) throw tooMany(wait);
    const windows: [string, number][] = [
      [k.ip, throttleLimits.ipWindowSeconds],
      [k.pair, throttleLimits.pairWindowSeconds],
      [k.account, throttleLimits.accountWindowSeconds],
    ];
    for (const [key, windowSeconds] of windows) {
      const row = byKey.get(key)!;
      const expired = elapsedSeconds(row.windowStartedAt, now) >= windowSeconds;
      await tx
        .update(loginFailures)
        .set({ failures: expired ? 1 : row.failures + 1, windowStartedAt: expired ? now : row.windowStartedAt, lastFailureAt: now })
        .where(eq(loginFailures.key, key));
    }
  });
}

/** How long before another try is allowed (0: now), from the three counts as they stand. */
function secondsToWait(counts: { ip?: FailureCount; pair?: FailureCount; account?: FailureCount }, known: boolean, now: Date): number {
  const elapsed = (since: Date) => elapsedSeconds(since, now);
  const { ip, pair, account } = counts;
  // An address the account has signed in from is its owner's (or shared with them, as behind a
  // school's NAT): address- and account-wide limits do not apply there.
  if (!known && ip && elapsed(ip.windowStartedAt) < throttleLimits.ipWindowSeconds && ip.failures >= throttleLimits.ipFailures) {
    return throttleLimits.ipWindowSeconds - elapsed(ip.windowStartedAt);
  }
  if (pair && elapsed(pair.windowStartedAt) < throttleLimits.pairWindowSeconds && pair.failures >= throttleLimits.pairFreeFailures) {
    const longest = known ? throttleLimits.knownPairMaxDelaySeconds : throttleLimits.pairMaxDelaySeconds;
    const delay = Math.min(2 ** (pair.failures - throttleLimits.pairFreeFailures), longest);
    const wait = delay - elapsed(pair.lastFailureAt);
    if (wait > 0) return wait;
  }
  if (
    !known &&
    account &&
    elapsed(account.windowStartedAt) < throttleLimits.accountWindowSeconds &&
    account.failures >= throttleLimits.accountFailures
  ) {
    return throttleLimits.accountWindowSeconds - elapsed(account.windowStartedAt);
  }
  return 0;
}

/** Has the account signed in (or signed up) from this address before? */
async function isKnownAddress(db: Executor, subject: LoginSubject): Promise<boolean> {
  if (subject.userId === undefined) return false;
  const rows = await db
    .select({ ip: knownLoginIps.ip })
    .from(knownLoginIps)
    .where(and(eq(knownLoginIps.userId, subject.userId), eq(knownLoginIps.ip, subject.ip)));
  return rows.length > 0;
}

/**
 * The attempt succeeded: its reservation is given back (the address and account counts drop by
 * one, the account+address count is cleared), and the address becomes one the account is known at.
 */
export async function recordLoginSuccess(options: ServiceOptions, subject: LoginSubject & { userId: number }): Promise<void> {
  const k = keys(subject);
  await inTransaction(options, async (tx) => {
    await tx.db.delete(loginFailures).where(eq(loginFailures.key, k.pair));
    await tx.db
      .update(loginFailures)
      .set({ failures: sql`greatest(${loginFailures.failures} - 1, 0)` })
      .where(inArray(loginFailures.key, [k.ip, k.account]));
    // A sign-in from a new place is told to the owner (not the first sign-in after signing up: that address is known).
    const seen = await tx.db
      .select({ ip: knownLoginIps.ip })
      .from(knownLoginIps)
      .where(eq(knownLoginIps.userId, subject.userId))
      .orderBy(sql`${knownLoginIps.ip} = ${subject.ip} desc`)
      .limit(1);
    const newPlace = seen.length > 0 && seen[0]!.ip !== subject.ip;
    await rememberLoginAddress(tx.db, subject.userId, subject.ip);
    if (newPlace) {
      await emit(tx, { actorId: subject.userId, verb: "user.signed_in_new_place", subjectId: subject.userId, data: { ip: subject.ip } });
    }
  });
}

/** Marks an address as one the account has signed in from (also at sign-up). */
export async function rememberLoginAddress(db: Executor, userId: number, ip: string): Promise<void> {
  await db
    .insert(knownLoginIps)
    .values({ userId, ip })
    .onConflictDoUpdate({ target: [knownLoginIps.userId, knownLoginIps.ip], set: { lastSeenAt: sql`now()` } });
}

function elapsedSeconds(since: Date, now: Date): number {
  return (now.getTime() - since.getTime()) / 1000;
}

function tooMany(seconds: number): AppError {
  return new AppError("too_many_attempts", { params: waitParams(seconds) });
}

/**
 * The wait as the message says it: "11 min 58 s", whole minutes alone, or seconds under a minute
 * (i18next picks the message by `context`). `seconds` is the whole wait, for Retry-After.
 */
export function waitParams(wait: number): Record<string, string | number> {
  const seconds = Math.max(1, Math.ceil(wait));
  if (seconds < 60) return { seconds };
  const minutes = Math.floor(seconds / 60);
  const remainingSeconds = seconds % 60;
  return { seconds, minutes, remainingSeconds, context: remainingSeconds === 0 ? "minutes" : "minutes_seconds" };
}

/** Forgets failure counts whose windows have all ended (the longest window is an hour). */
export async function deleteStaleLoginFailures(db: Executor): Promise<void> {
  const longest = Math.max(
    throttleLimits.ipWindowSeconds,
    throttleLimits.pairWindowSeconds,
    throttleLimits.accountWindowSeconds,
    throttleLimits.pairMaxDelaySeconds,
  );
  await db.delete(loginFailures).where(sql`${loginFailures.lastFailureAt} < now() - make_interval(secs => ${longest})`);
}
