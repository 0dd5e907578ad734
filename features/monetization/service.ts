import { and, count, eq, gte, inArray, isNull, sql } from "drizzle-orm";
import type { Database, Executor } from "../../server/db/client.ts";
import { follows, moderationCases, monetizationApplications, users, writings } from "../../server/db/schema/index.ts";
import { AppError } from "../../common/app-error.ts";
import { inTransaction, type ServiceOptions } from "../../server/lib/transactions.ts";
import { userTag } from "../../server/lib/cache-tags.ts";
import { emit } from "../events/bus.ts";
import { forgetSessionsOf } from "../accounts/session-cache.server.ts";
import { criterionMet, monetizationPaths, type CriterionKey } from "./criteria.ts";

/*
 * The monetization programme: participants are users whose type is not "Registered users" (spec
 * §6). A Registered user applies as a creator: every criterion met makes them "Official users" at
 * once; otherwise the application waits for an admin's review, its reason the unmet criteria.
 */

const day = 24 * 60 * 60 * 1000;

/** The user's current figure for each criterion. */
export async function measureCriteria(db: Executor, userId: number, now: Date): Promise<Record<CriterionKey, number>> {
  const [user] = await db.select({ createdAt: users.createdAt, sinecoin: users.sinecoin }).from(users).where(eq(users.id, userId));
  if (!user) throw new AppError("not_found");
  const [followers] = await db.select({ n: count() }).from(follows).where(eq(follows.followeeId, userId));
  const [pieces] = await db
    .select({ n: count() })
    .from(writings)
    .where(and(eq(writings.authorId, userId), eq(writings.isRepost, false), isNull(writings.hiddenAt)));
  const [upheld] = await db
    .select({ n: count() })
    .from(moderationCases)
    .where(
      and(
        eq(moderationCases.authorId, userId),
        inArray(moderationCases.decision, ["hide", "delete"]),
        gte(moderationCases.decidedAt, new Date(now.getTime() - 90 * day)),
      ),
    );
  return {
    followers: Number(followers?.n ?? 0),
    original_pieces: Number(pieces?.n ?? 0),
    account_age_days: Math.floor((now.getTime() - new Date(user.createdAt).getTime()) / day),
    upheld_reports_90_days: Number(upheld?.n ?? 0),
    sinecoin_balance: user.sinecoin,
  };
}

export interface MonetizationStatus {
  userType: string;
  participant: boolean;
  paths: {
    key: string;
    criteria: { key: CriterionKey; required: number; bound: "at_least" | "at_most"; current: number; met: boolean }[];
  }[];
  application: { status: "pending" | "approved" | "rejected"; reason: string | null } | null;
}

export async function monetizationStatus(db: Database, userId: number, now: Date): Promise<MonetizationStatus> {
  const [user] = await db.select({ userType: users.userType }).from(users).where(eq(users.id, userId));
  if (!user) throw new AppError("not_found");
  const measured = await measureCriteria(db, userId, now);
  const [application] = await db.select().from(monetizationApplications).where(eq(monetizationApplications.userId, userId));
  return {
    userType: user.userType,
    participant: user.userType !== "Registered users",
    paths: monetizationPaths.map((path) => ({
      key: path.key,
      criteria: path.criteria.map((criterion) => ({
        key: criterion.key,
        required: criterion.required,
        bound: criterion.bound,
        current: measured[criterion.key],
        met: criterionMet(criterion, measured[criterion.key]),
      })),
    })),
    application: application ? { status: application.status, reason: application.reason } : null,
  };
}

/**
 * Applies as a creator: once per user, again only after a rejection (409 `already_applied`; a
 * participant has nothing to apply for). Every criterion met: approved, and the user becomes "Official users" in the same
 * transaction; else pending, its reason the unmet criteria's keys.
 */
export async function applyAsCreator(options: ServiceOptions, userId: number, now: Date): Promise<MonetizationStatus> {
  await inTransaction(options, async (tx) => {
    const [user] = await tx.db.select({ userType: users.userType }).from(users).where(eq(users.id, userId)).for("update");
    if (!user) throw new AppError("not_found");
    if (user.userType !== "Registered users") throw new AppError("already_applied");
    const measured = await measureCriteria(tx.db, userId, now);
    const creator = monetizationPaths.find((path) => path.key === "creator")!;
    const unmet = creator.criteria.filter((criterion) => !criterionMet(criterion, measured[criterion.key])).map((c) => c.key);
    const approved = unmet.length === 0;
    const [created] = await tx.db
      .insert(monetizationApplications)
      .values({
        userId,
        status: approved ? "approved" : "pending",
        reason: approved ? null : unmet.join(","),
        decidedAt: approved ? sql`now()` : null,
      })
      // A rejected applicant may apply again; a pending or approved application stands.
      .onConflictDoUpdate({
        target: monetizationApplications.userId,
        set: {
          status: approved ? "approved" : "pending",
          reason: approved ? null : unmet.join(","),
          createdAt: sql`now()`,
          decidedAt: approved ? sql`now()` : null,
        },
        where: sql`${monetizationApplications.status} = 'rejected'`,
      })
      .returning();
    if (!created) throw new AppError("already_applied");
    if (approved) {
      await tx.db.update(users).set({ userType: "Official users" }).where(eq(users.id, userId));
      await emit(tx, { actorId: null, verb: "user.type_changed", subjectId: userId, data: { from: user.userType, to: "Official users" } });
      tx.invalidate(userTag(userId));
      tx.afterCommit(() => forgetSessionsOf(userId));
    }
  });
  return monetizationStatus(options.db, userId, now);
}
