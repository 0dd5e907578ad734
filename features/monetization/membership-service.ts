import { and, asc, eq, isNull, lte } from "drizzle-orm";
import type { Database, Executor } from "../../server/db/client.ts";
import { memberships, monetizationApplications, users } from "../../server/db/schema/index.ts";
import { AppError } from "../../common/app-error.ts";
import { onceByKey, requireIdempotencyKey } from "../../server/lib/idempotency.ts";
import { inTransaction, type ServiceOptions, type Transaction } from "../../server/lib/transactions.ts";
import { userTag } from "../../server/lib/cache-tags.ts";
import { postLedgerTransaction } from "../ledger/service.ts";
import { emit } from "../events/bus.ts";
import { forgetSessionsOf } from "../accounts/session-cache.server.ts";
import type { UserType } from "../accounts/constants.ts";
import { higherType, membershipPlan, type MembershipDays, type MembershipTier } from "./memberships.ts";

/*
 * VIP and SVIP memberships bought with sinecoin (spec §6: their holders take part in the
 * monetization programme). Buying the tier one holds extends it; the `expire-memberships` job
 * renews a due membership whose holder asked for it and whose purse covers the plan, else ends it
 * and gives the holder back the type they had before (or "Official users" when their creator
 * application was approved): the type never stays raised by a membership that ended.
 */

const day = 24 * 60 * 60 * 1000;
/** Where membership money goes (double entry). */
const membershipsTill = { system: "memberships", currency: "sinecoin" } as const;

export interface Membership {
  tier: MembershipTier;
  days: number;
  startsAt: string;
  endsAt: string;
  autoRenew: boolean;
  /** Still running: not ended by the job and its end not reached. */
  active: boolean;
}

export interface MembershipPurchase {
  membership: Membership;
  price: number;
  /** The buyer's sinecoin afterwards. */
  balance: number;
}

type MembershipRow = typeof memberships.$inferSelect;

function present(row: MembershipRow, now: Date): Membership {
  return {
    tier: row.tier,
    days: row.days,
    startsAt: new Date(row.startsAt).toISOString(),
    endsAt: new Date(row.endsAt).toISOString(),
    autoRenew: row.autoRenew,
    active: row.endedAt === null && new Date(row.endsAt) > now,
  };
}

/** The user's membership, running or the last one that ended; null when they never had one. */
export async function membershipOf(db: Database | Executor, userId: number, now: Date): Promise<Membership | null> {
  const [row] = await db.select().from(memberships).where(eq(memberships.userId, userId));
  return row ? present(row, now) : null;
}

async function changeType(tx: Transaction, userId: number, from: UserType, to: UserType): Promise<void> {
  if (from === to) return;
  await tx.db.update(users).set({ userType: to }).where(eq(users.id, userId));
  await emit(tx, { actorId: null, verb: "user.type_changed", subjectId: userId, data: { from, to } });
  tx.invalidate(userTag(userId));
  tx.afterCommit(() => forgetSessionsOf(userId));
}

async function charge(
  tx: Transaction,
  userId: number,
  input: { tier: MembershipTier; days: number; price: number; endsAt: Date; renewal: "bought" | "extended" | "auto"; key: string },
): Promise<void> {
  await postLedgerTransaction(tx, {
    idempotencyKey: input.key,
    kind: "membership_purchase",
    data: {
      tier: input.tier,
      days: input.days,
      endsAt: input.endsAt.toISOString(),
      renewal: input.renewal,
      title: input.tier.toUpperCase(),
      path: "/shop#membership",
    },
    entries: [
      { account: { userId, currency: "sinecoin" }, amount: -input.price },
      { account: membershipsTill, amount: input.price },
    ],
  });
}

/**
 * Buys a plan: once per idempotency key, with the users row and the membership row locked. The
 * tier one holds is extended from its end; another tier while one runs is
 * `membership_other_tier`; a purse that does not cover the price is refused by the database
 * (`insufficient_balance`). The type rises to the tier's (never lowers a higher one).
 */
export async function buyMembership(
  options: ServiceOptions,
  userId: number,
  input: { tier: MembershipTier; days: MembershipDays; autoRenew: boolean },
  idempotencyKey: string | undefined,
  now: Date,
): Promise<MembershipPurchase> {
  const key = requireIdempotencyKey(idempotencyKey);
  const plan = membershipPlan(input.tier);
  const price = plan.prices[input.days];
  return inTransaction(options, (tx) =>
    onceByKey(tx, { userId, key, operation: "membership_purchase", input }, async () => {
      const [user] = await tx.db.select({ userType: users.userType }).from(users).where(eq(users.id, userId)).for("update");
      if (!user) throw new AppError("not_found");
      const [row] = await tx.db.select().from(memberships).where(eq(memberships.userId, userId)).for("update");
      const running = row !== undefined && row.endedAt === null;
      const active = running && new Date(row.endsAt) > now;
      if (running && row.tier !== input.tier) throw new AppError("membership_other_tier");
      const startsAt = active ? new Date(row.startsAt) : now;
      const endsAt = new Date((active ? new Date(row.endsAt).getTime() : now.getTime()) + input.days * day);
      // A membership the job has not ended yet still raised the type: keep what it raised it from.
      const previousType = running ? row.previousType : user.userType;
      const values = { tier: input.tier, days: input.days, startsAt, endsAt, autoRenew: input.autoRenew, previousType, endedAt: null };
      await tx.db
        .insert(memberships)
        .values({ userId, ...values })
        .onConflictDoUpdate({ target: memberships.userId, set: values });
      await charge(tx, userId, { ...input, price, endsAt, renewal: active ? "extended" : "bought", key: `membership:${userId}:${key}` });
      await changeType(tx, userId, user.userType, higherType(user.userType, plan.userType));
      await emit(tx, {
        actorId: userId,
        verb: "membership.purchased",
        subjectId: userId,
        data: { tier: input.tier, days: input.days, price, endsAt: endsAt.toISOString(), extended: active },
      });
      tx.invalidate(userTag(userId));
      const [after] = await tx.db.select({ sinecoin: users.sinecoin }).from(users).where(eq(users.id, userId));
      const [saved] = await tx.db.select().from(memberships).where(eq(memberships.userId, userId));
      return { membership: present(saved!, now), price, balance: after!.sinecoin };
    }),
  );
}

/** Turns automatic renewal of the running membership on or off (`not_found` without one). */
export async function setMembershipAutoRenew(options: ServiceOptions, userId: number, autoRenew: boolean, now: Date): Promise<Membership> {
  return inTransaction(options, async (tx) => {
    const [row] = await tx.db
      .update(memberships)
      .set({ autoRenew })
      .where(and(eq(memberships.userId, userId), isNull(memberships.endedAt)))
      .returning();
    if (!row) throw new AppError("not_found");
    return present(row, now);
  });
}

/**
 * The `expire-memberships` job's work: each membership past its end, in its own transaction with
 * the users row and then the membership row locked, is renewed for its plan when its holder asked
 * for it and the purse covers the price (the ledger key names the period, so a repeated run pays
 * once), else ended: `ended_at` set and the type given back. A second run finds nothing due.
 */
export async function processDueMemberships(db: Database, now: Date, batch = 200): Promise<{ renewed: number; expired: number }> {
  const due = await db
    .select({ userId: memberships.userId })
    .from(memberships)
    .where(and(isNull(memberships.endedAt), lte(memberships.endsAt, now)))
    .orderBy(asc(memberships.endsAt))
    .limit(batch);
  let renewed = 0;
  let expired = 0;
  for (const { userId } of due) {
    const outcome = await inTransaction({ db }, async (tx) => {
      const [user] = await tx.db
        .select({ userType: users.userType, sinecoin: users.sinecoin })
        .from(users)
        .where(eq(users.id, userId))
        .for("update");
      const [row] = await tx.db.select().from(memberships).where(eq(memberships.userId, userId)).for("update");
      if (!user || !row || row.endedAt !== null || new Date(row.endsAt) > now) return null;
      const plan = membershipPlan(row.tier);
      const days = row.days as MembershipDays;
      const price = plan.prices[days] ?? plan.prices[30];
      // Both rows are locked, so this read of the purse cannot race the charge below.
      if (row.autoRenew && user.sinecoin >= price) {
        const endsAt = new Date(new Date(row.endsAt).getTime() + days * day);
        await charge(tx, userId, {
          tier: row.tier,
          days,
          price,
          endsAt,
          renewal: "auto",
          key: `membership-renew:${userId}:${new Date(row.endsAt).toISOString()}`,
        });
        await tx.db.update(memberships).set({ endsAt }).where(eq(memberships.userId, userId));
        await emit(tx, {
          actorId: null,
          verb: "membership.renewed",
          subjectId: userId,
          data: { tier: row.tier, days, price, endsAt: endsAt.toISOString() },
        });
        tx.invalidate(userTag(userId));
        return "renewed" as const;
      }
      await tx.db.update(memberships).set({ endedAt: now }).where(eq(memberships.userId, userId));
      if (user.userType === plan.userType) {
        const [application] = await tx.db
          .select({ status: monetizationApplications.status })
          .from(monetizationApplications)
          .where(eq(monetizationApplications.userId, userId));
        const back =
          application?.status === "approved" ? higherType(row.previousType as UserType, "Official users") : (row.previousType as UserType);
        await changeType(tx, userId, user.userType, back);
      }
      await emit(tx, {
        actorId: null,
        verb: "membership.expired",
        subjectId: userId,
        data: { tier: row.tier, reason: row.autoRenew ? "insufficient_balance" : "ended" },
      });
      tx.invalidate(userTag(userId));
      return "expired" as const;
    });
    if (outcome === "renewed") renewed += 1;
    if (outcome === "expired") expired += 1;
  }
  return { renewed, expired };
}
