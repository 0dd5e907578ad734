import { and, eq, inArray, sql } from "drizzle-orm";
import type { Executor } from "../../server/db/client.ts";
import { knownLoginIps, loginFailures } from "../../server/db/schema/index.ts";
import { AppError } from "../../common/app-error.ts";

/**
 * Login throttling that slows an attacker without locking the real user out:
 * - per IP: at most 30 failures in 15 minutes, then that IP waits for the window to end, except for
 *   accounts that have signed in from it before (people behind one NAT keep their access);
 * - per account and IP: after 5 failures, each next try from that IP waits 2^(n-5) s (at most 15 min);
 * - per account: after 100 failures in an hour from anywhere, only IPs the account has signed in
 *   from before may keep trying, so a distributed attack cannot lock the owner out.
 */
export const throttleLimits = {
  ipFailures: 30,
  ipWindowSeconds: 15 * 60,
  pairFreeFailures: 5,
  pairMaxDelaySeconds: 15 * 60,
  pairWindowSeconds: 60 * 60,
  accountFailures: 100,
  accountWindowSeconds: 60 * 60,
};

interface Subject {
  ip: string;
  /** `user:<id>` for an existing account, else `name:<username or email as typed, lower-cased>`. */
  account: string;
  /** The account's user id when it exists. */
  userId: number | undefined;
}

const keys = (subject: Subject) => ({
  ip: `ip:${subject.ip}`,
  pair: `pair:${subject.account}|${subject.ip}`,
  account: `account:${subject.account}`,
});

export async function assertLoginAllowed(db: Executor, subject: Subject, now = new Date()): Promise<void> {
  const k = keys(subject);
  const rows = await db.select().from(loginFailures).where(inArray(loginFailures.key, [k.ip, k.pair, k.account]));
  const byKey = new Map(rows.map((row) => [row.key, row]));
  const elapsed = (since: Date) => (now.getTime() - since.getTime()) / 1000;

  // Has the account signed in from this address before? Then the address is its owner's (or shared
  // with them, as behind a school's NAT), and address- and account-wide limits do not apply.
  let known: boolean | undefined;
  const knownHere = async () => {
    if (subject.userId === undefined) return false;
    known ??=
      (await db
        .select({ ip: knownLoginIps.ip })
        .from(knownLoginIps)
        .where(and(eq(knownLoginIps.userId, subject.userId), eq(knownLoginIps.ip, subject.ip)))).length > 0;
    return known;
  };

  const ip = byKey.get(k.ip);
  if (ip && elapsed(ip.windowStartedAt) < throttleLimits.ipWindowSeconds && ip.failures >= throttleLimits.ipFailures && !(await knownHere())) {
    throw tooMany(throttleLimits.ipWindowSeconds - elapsed(ip.windowStartedAt));
  }
  const pair = byKey.get(k.pair);
  if (pair && elapsed(pair.windowStartedAt) < throttleLimits.pairWindowSeconds && pair.failures >= throttleLimits.pairFreeFailures) {
    const delay = Math.min(2 ** (pair.failures - throttleLimits.pairFreeFailures), throttleLimits.pairMaxDelaySeconds);
    const wait = delay - elapsed(pair.lastFailureAt);
    if (wait > 0) throw tooMany(wait);
  }
  const account = byKey.get(k.account);
  if (
    account &&
    subject.userId !== undefined &&
    elapsed(account.windowStartedAt) < throttleLimits.accountWindowSeconds &&
    account.failures >= throttleLimits.accountFailures &&
    !(await knownHere())
  ) {
    throw tooMany(throttleLimits.accountWindowSeconds - elapsed(account.windowStartedAt));
  }
}

export async function recordLoginFailure(db: Executor, subject: Subject): Promise<void> {
  const k = keys(subject);
  const windows: [string, number][] = [
    [k.ip, throttleLimits.ipWindowSeconds],
    [k.pair, throttleLimits.pairWindowSeconds],
    [k.account, throttleLimits.accountWindowSeconds],
  ];
  for (const [key, windowSeconds] of windows) {
    const expired = sql`${loginFailures.windowStartedAt} < now() - make_interval(secs => ${windowSeconds})`;
    await db
      .insert(loginFailures)
      .values({ key, failures: 1 })
      .onConflictDoUpdate({
        target: loginFailures.key,
        set: {
          failures: sql`case when ${expired} then 1 else ${loginFailures.failures} + 1 end`,
          windowStartedAt: sql`case when ${expired} then now() else ${loginFailures.windowStartedAt} end`,
          lastFailureAt: sql`now()`,
        },
      });
  }
}

export async function recordLoginSuccess(db: Executor, subject: Subject & { userId: number }): Promise<void> {
  await db.delete(loginFailures).where(eq(loginFailures.key, keys(subject).pair));
  await db
    .insert(knownLoginIps)
    .values({ userId: subject.userId, ip: subject.ip })
    .onConflictDoUpdate({ target: [knownLoginIps.userId, knownLoginIps.ip], set: { lastSeenAt: sql`now()` } });
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
  const longest = Math.max(throttleLimits.ipWindowSeconds, throttleLimits.pairWindowSeconds, throttleLimits.accountWindowSeconds, throttleLimits.pairMaxDelaySeconds);
  await db.delete(loginFailures).where(sql`${loginFailures.lastFailureAt} < now() - make_interval(secs => ${longest})`);
}
