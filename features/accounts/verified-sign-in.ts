import { eq, or, sql } from "drizzle-orm";
import type { Executor } from "../../server/db/client.ts";
import { unreadCounters, users } from "../../server/db/schema/index.ts";
import { AppError } from "../../common/app-error.ts";
import { inTransaction, type ServiceOptions } from "../../server/lib/transactions.ts";
import { createSession, isUniqueViolation, revokeSessionsOf, type ClientInfo, type SignedIn, type User } from "./service.ts";
import { loginAccountKey, recordLoginSuccess } from "./throttle.server.ts";
import { emit } from "../events/bus.ts";

/*
 * The accounts side of signing in with a verification code (SMS sign-in, the puzzle's
 * alternative) and of resetting a password: the code checks live in features/verification.
 */

export async function findUserByPhone(db: Executor, phone: string): Promise<User | null> {
  const [user] = await db.select().from(users).where(eq(users.phone, phone));
  return user ?? null;
}

export async function findUserByEmail(db: Executor, email: string): Promise<User | null> {
  const [user] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = ${email.trim().toLowerCase()}`);
  return user ?? null;
}

/** The account a login form names: its username or its email, in any case. */
export async function findUserByLogin(db: Executor, login: string): Promise<User | null> {
  const name = login.trim().toLowerCase();
  const [user] = await db
    .select()
    .from(users)
    .where(or(sql`lower(${users.username}) = ${name}`, sql`lower(${users.email}) = ${name}`))
    .limit(1);
  return user ?? null;
}

/** A new session for an account whose owner proved themselves with a code. */
export async function startVerifiedSession(options: ServiceOptions, user: User, remember: boolean, client: ClientInfo): Promise<SignedIn> {
  return inTransaction(options, async (tx) => {
    const token = await createSession(tx.db, user.id, remember, client);
    await recordLoginSuccess({ db: options.db, tx }, { ip: client.ip, account: loginAccountKey(user.username), userId: user.id });
    return { user, token, persistent: remember };
  });
}

export async function assertUsernameAvailable(db: Executor, username: string): Promise<void> {
  const [taken] = await db
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.username}) = ${username.toLowerCase()}`);
  if (taken) throw new AppError("username_exists", { fields: { username: "errors:username_exists" } });
}

export interface PhoneAccountInput {
  username: string;
  /** E.164. */
  phone: string;
  /** The phone number's region (ISO code): the account's country until the owner says otherwise. */
  country: string;
}

/**
 * SMS sign-in's first use: the account bound to the phone, its counters, its first session and
 * the `user.registered` event, in the caller's transaction. No email, password or birthday yet.
 */
export async function registerByPhone(
  options: ServiceOptions,
  input: PhoneAccountInput,
  remember: boolean,
  client: ClientInfo,
): Promise<SignedIn> {
  try {
    return await inTransaction(options, async (tx) => {
      const [user] = await tx.db
        .insert(users)
        .values({ username: input.username, nickname: input.username, phone: input.phone, gender: "secret", country: input.country })
        .returning();
      await tx.db.insert(unreadCounters).values({ userId: user!.id });
      const token = await createSession(tx.db, user!.id, remember, client);
      await recordLoginSuccess({ db: options.db, tx }, { ip: client.ip, account: loginAccountKey(user!.username), userId: user!.id });
      await emit(tx, { actorId: user!.id, verb: "user.registered", subjectId: user!.id, data: { via: "sms" } });
      return { user: user!, token, persistent: remember };
    });
  } catch (error) {
    // Someone took the username a moment ago (the phone cannot be taken: its code is spent once).
    if (isUniqueViolation(error)) throw new AppError("username_exists", { fields: { username: "errors:username_exists" } });
    throw error;
  }
}

/**
 * A new password (already hashed) after a verified reset: every session of the account ends, in
 * the caller's transaction, and the change is recorded.
 */
export async function replacePassword(options: ServiceOptions, userId: number, passwordHash: string): Promise<void> {
  await inTransaction(options, async (tx) => {
    await tx.db.update(users).set({ passwordHash }).where(eq(users.id, userId));
    await revokeSessionsOf({ db: options.db, tx }, userId);
    await emit(tx, { actorId: userId, verb: "user.password_reset", subjectId: userId, data: {} });
  });
}
