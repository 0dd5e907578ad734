import { asc, desc, eq, inArray } from "drizzle-orm";
import type { Database } from "../../server/db/client.ts";
import { memberships, monetizationApplications, users } from "../../server/db/schema/index.ts";
import { AppError } from "../../common/app-error.ts";
import { inTransaction, type ServiceOptions } from "../../server/lib/transactions.ts";
import { userTag } from "../../server/lib/cache-tags.ts";
import { emit } from "../events/bus.ts";
import { forgetSessionsOf } from "../accounts/session-cache.server.ts";
import { recordAudit, requireReason } from "../admin/audit.ts";
import type { Staff } from "../admin/staff.ts";
import type { UserType } from "../accounts/constants.ts";
import { higherType } from "./memberships.ts";

/*
 * Site admins review creator applications that did not meet every criterion (`/admin/monetization`
 * and its API): approving makes the applicant "Official users" (a running membership then gives
 * that back at its end), rejecting needs a reason the applicant reads on `/monetization`. Both
 * are audited and told to the applicant.
 */

export interface ApplicationRow {
  userId: number;
  username: string;
  nickname: string;
  userType: UserType;
  status: "pending" | "approved" | "rejected";
  reason: string | null;
  createdAt: Date;
  decidedAt: Date | null;
}

/** Pending applications (oldest first), then the 20 latest decided. */
export async function applicationQueue(db: Database): Promise<{ waiting: ApplicationRow[]; recent: ApplicationRow[] }> {
  const columns = {
    userId: monetizationApplications.userId,
    username: users.username,
    nickname: users.nickname,
    userType: users.userType,
    status: monetizationApplications.status,
    reason: monetizationApplications.reason,
    createdAt: monetizationApplications.createdAt,
    decidedAt: monetizationApplications.decidedAt,
  };
  const base = () => db.select(columns).from(monetizationApplications).innerJoin(users, eq(users.id, monetizationApplications.userId));
  const waiting = await base()
    .where(eq(monetizationApplications.status, "pending"))
    .orderBy(asc(monetizationApplications.createdAt))
    .limit(200);
  const recent = await base()
    .where(inArray(monetizationApplications.status, ["approved", "rejected"]))
    .orderBy(desc(monetizationApplications.decidedAt))
    .limit(20);
  return { waiting, recent };
}

async function decide(
  options: ServiceOptions,
  staff: Staff,
  address: string,
  userId: number,
  decision: { status: "approved" | "rejected"; reason: string },
): Promise<void> {
  await inTransaction(options, async (tx) => {
    const [user] = await tx.db.select({ userType: users.userType }).from(users).where(eq(users.id, userId)).for("update");
    const [application] = await tx.db
      .select({ status: monetizationApplications.status })
      .from(monetizationApplications)
      .where(eq(monetizationApplications.userId, userId))
      .for("update");
    if (!user || !application) throw new AppError("not_found");
    if (application.status !== "pending") throw new AppError("application_decided");
    await tx.db
      .update(monetizationApplications)
      .set({ status: decision.status, reason: decision.status === "rejected" ? decision.reason : null, decidedAt: new Date() })
      .where(eq(monetizationApplications.userId, userId));
    if (decision.status === "approved") {
      // A running membership gives "Official users" back at its end instead of what it raised the type from.
      await tx.db.update(memberships).set({ previousType: "Official users" }).where(eq(memberships.userId, userId));
      const to = higherType(user.userType, "Official users");
      if (to !== user.userType) {
        await tx.db.update(users).set({ userType: to }).where(eq(users.id, userId));
        await emit(tx, { actorId: staff.id, verb: "user.type_changed", subjectId: userId, data: { from: user.userType, to } });
        tx.afterCommit(() => forgetSessionsOf(userId));
      }
    }
    await recordAudit(
      tx.db,
      { staff, address },
      {
        action: `monetization.${decision.status === "approved" ? "approve" : "reject"}`,
        target: `user:${userId}`,
        before: { status: "pending" },
        after: { status: decision.status },
        reason: decision.reason,
      },
    );
    await emit(tx, {
      actorId: staff.id,
      verb: "monetization.application_decided",
      subjectId: userId,
      recipientIds: [userId],
      data: { status: decision.status, reason: decision.status === "rejected" ? decision.reason : null },
    });
    tx.invalidate(userTag(userId));
  });
}

/** Approves a pending application (the reason is optional, for the audit log). */
export function approveApplication(options: ServiceOptions, staff: Staff, address: string, userId: number, reason: string | undefined) {
  return decide(options, staff, address, userId, { status: "approved", reason: (reason ?? "").trim() || "approved" });
}

/** Rejects a pending application with a reason the applicant reads (`reason_required` without one). */
export function rejectApplication(options: ServiceOptions, staff: Staff, address: string, userId: number, reason: string | undefined) {
  return decide(options, staff, address, userId, { status: "rejected", reason: requireReason(reason) });
}
