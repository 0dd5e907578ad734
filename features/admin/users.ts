import { and, count, desc, eq, lt, or, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "../../server/db/client.ts";
import { answers, comments, moderationCases, questions, reports, sessions, users, writings } from "../../server/db/schema/index.ts";
import { AppError } from "../../common/app-error.ts";
import { idSchema } from "../../common/id.ts";
import { inTransaction, type ServiceOptions } from "../../server/lib/transactions.ts";
import { userTag } from "../../server/lib/cache-tags.ts";
import { emit } from "../events/bus.ts";
import { siteRoles, userTypes, type SiteRole, type UserType } from "../accounts/constants.ts";
import { forgetSessionsOf } from "../accounts/session-cache.server.ts";
import { listMovements, walletSummary, type WalletMovement, type WalletSummary } from "../wallet/service.ts";
import { reasonField, recordAudit, requireReason, type AuditActor } from "./audit.ts";
import { staffMay, type Staff } from "./staff.ts";

/* Staff's view of accounts: search, one account's page, and changing its type, role or suspension. */

export const userSearchSchema = z.object({
  q: z.string().trim().max(100).optional(),
  cursor: z.coerce.number().int().positive().optional(),
});

export const userPatchSchema = z.strictObject({
  user_type: z.enum(userTypes).optional(),
  site_role: z.enum(siteRoles).optional(),
  /** ISO 8601 with an offset (`2027-01-01T00:00:00+08:00`), or null to lift. */
  suspended_until: z.iso.datetime({ offset: true }).nullable().optional(),
  reason: reasonField,
});
export type UserPatch = z.infer<typeof userPatchSchema>;

export const userParams = z.object({ id: idSchema });

export interface StaffUserRow {
  id: number;
  username: string;
  nickname: string;
  email: string | null;
  phone: string | null;
  userType: UserType;
  siteRole: SiteRole;
  suspendedUntil: Date | null;
  suspensionReason: string;
  createdAt: Date;
}

/** `li***@example.com`: enough to recognise, not to write to. */
export function maskEmail(email: string | null): string | null {
  if (!email) return email;
  const at = email.indexOf("@");
  if (at < 0) return "***";
  return `${email.slice(0, Math.min(2, at))}***${email.slice(at)}`;
}

/** `+86138****8000`: the country code and first and last digits stay. */
export function maskPhone(phone: string | null): string | null {
  if (!phone) return phone;
  return phone.length <= 7 ? "****" : `${phone.slice(0, 6)}****${phone.slice(-4)}`;
}

/** Contact details as this staff member may see them: whole for admins, masked for moderators. */
export function contactFor<T extends { email: string | null; phone: string | null }>(staff: Staff, row: T): T {
  if (staffMay(staff, "see_contact_details")) return row;
  return { ...row, email: maskEmail(row.email), phone: maskPhone(row.phone) };
}

const rowColumns = {
  id: users.id,
  username: users.username,
  nickname: users.nickname,
  email: users.email,
  phone: users.phone,
  userType: users.userType,
  siteRole: users.siteRole,
  suspendedUntil: users.suspendedUntil,
  suspensionReason: users.suspensionReason,
  createdAt: users.createdAt,
};

export const userPageSize = 30;

/** Newest accounts first; `q` matches username, nickname, email or phone (case-insensitive, anywhere); `cursor` the last id seen. */
export async function searchUsers(
  db: Database,
  staff: Staff,
  query: z.infer<typeof userSearchSchema>,
): Promise<{ rows: StaffUserRow[]; nextCursor: number | null }> {
  const conditions: SQL[] = [];
  if (query.q) {
    const pattern = `%${query.q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    conditions.push(
      or(
        sql`lower(${users.username}) like ${pattern}`,
        sql`lower(${users.nickname}) like ${pattern}`,
        sql`lower(${users.email}) like ${pattern}`,
        sql`${users.phone} like ${pattern}`,
      )!,
    );
  }
  if (query.cursor) conditions.push(lt(users.id, query.cursor));
  const rows = await db
    .select(rowColumns)
    .from(users)
    .where(conditions.length ? and(...conditions) : undefined)
    .orderBy(desc(users.id))
    .limit(userPageSize + 1);
  const more = rows.length > userPageSize;
  const page = (more ? rows.slice(0, userPageSize) : rows).map((row) => contactFor(staff, row));
  return { rows: page, nextCursor: more ? page[page.length - 1]!.id : null };
}

export interface StaffUserDetail extends StaffUserRow {
  counts: { writings: number; questions: number; answers: number; comments: number; reportsFiled: number; casesAgainst: number };
  /** The account's live sessions: when and where it signed in. */
  signIns: { createdAt: Date; ip: string; userAgent: string }[];
  wallet: WalletSummary;
  statement: WalletMovement[];
}

async function countOf(db: Database, table: typeof writings | typeof questions | typeof answers | typeof comments, userId: number) {
  const [row] = await db.select({ n: count() }).from(table).where(eq(table.authorId, userId));
  return row?.n ?? 0;
}

export async function getStaffUser(db: Database, staff: Staff, id: number): Promise<StaffUserDetail> {
  const [row] = await db.select(rowColumns).from(users).where(eq(users.id, id));
  if (!row) throw new AppError("not_found");
  const [filed] = await db.select({ n: count() }).from(reports).where(eq(reports.reporterId, id));
  const [against] = await db.select({ n: count() }).from(moderationCases).where(eq(moderationCases.authorId, id));
  const signIns = await db
    .select({ createdAt: sessions.createdAt, ip: sessions.ip, userAgent: sessions.userAgent })
    .from(sessions)
    .where(eq(sessions.userId, id))
    .orderBy(desc(sessions.createdAt))
    .limit(20);
  const statement = staffMay(staff, "manage_ledger") ? (await listMovements(db, id, {}, 30)).items : [];
  return {
    ...contactFor(staff, row),
    counts: {
      writings: await countOf(db, writings, id),
      questions: await countOf(db, questions, id),
      answers: await countOf(db, answers, id),
      comments: await countOf(db, comments, id),
      reportsFiled: filed?.n ?? 0,
      casesAgainst: against?.n ?? 0,
    },
    signIns,
    wallet: await walletSummary(db, id),
    statement,
  };
}

/** The longest suspension: "permanent" is this far ahead. */
export const permanentSuspension = new Date("9999-12-31T00:00:00Z");

/**
 * A staff change to an account, audited in the same transaction. Moderators may suspend and lift;
 * type and role are for admins (403 `forbidden`). Suspending ends every session of the account at
 * once; it may sign in again to read and sees why and until when.
 */
export async function updateStaffUser(
  options: ServiceOptions,
  staff: Staff,
  address: string,
  id: number,
  patch: UserPatch,
): Promise<StaffUserRow> {
  const reason = requireReason(patch.reason);
  if (patch.user_type !== undefined && !staffMay(staff, "set_user_type")) throw new AppError("forbidden");
  if (patch.site_role !== undefined && !staffMay(staff, "set_site_role")) throw new AppError("forbidden");
  if (patch.suspended_until !== undefined && !staffMay(staff, "suspend_users")) throw new AppError("forbidden");
  const actor: AuditActor = { staff, address };
  return inTransaction(options, async (tx) => {
    const [before] = await tx.db.select(rowColumns).from(users).where(eq(users.id, id)).for("update");
    if (!before) throw new AppError("not_found");
    // Staff cannot lock themselves out or suspend themselves by mistake.
    if (id === staff.id && (patch.site_role !== undefined || patch.suspended_until)) throw new AppError("forbidden");
    const changes: Partial<typeof users.$inferInsert> = {};
    if (patch.user_type !== undefined && patch.user_type !== before.userType) changes.userType = patch.user_type;
    if (patch.site_role !== undefined && patch.site_role !== before.siteRole) changes.siteRole = patch.site_role;
    let suspension: Date | null | undefined;
    if (patch.suspended_until !== undefined) {
      suspension = patch.suspended_until === null ? null : new Date(patch.suspended_until);
      changes.suspendedUntil = suspension;
      changes.suspensionReason = suspension ? reason : "";
    }
    if (Object.keys(changes).length > 0) await tx.db.update(users).set(changes).where(eq(users.id, id));
    if (changes.userType)
      await emit(tx, {
        actorId: staff.id,
        verb: "user.type_changed",
        subjectId: id,
        data: { from: before.userType, to: changes.userType },
      });
    if (changes.siteRole)
      await emit(tx, {
        actorId: staff.id,
        verb: "user.site_role_changed",
        subjectId: id,
        data: { from: before.siteRole, to: changes.siteRole },
      });
    if (suspension !== undefined) {
      await emit(tx, {
        actorId: staff.id,
        verb: "user.suspension_changed",
        subjectId: id,
        data: { until: suspension?.toISOString() ?? null },
      });
      if (suspension && suspension > new Date()) await tx.db.delete(sessions).where(eq(sessions.userId, id));
    }
    const after = { ...before, ...changes };
    await recordAudit(tx.db, actor, {
      action: "user.update",
      target: `user:${id}`,
      before: auditedFields(before),
      after: auditedFields(after),
      reason,
    });
    tx.invalidate(userTag(id));
    tx.afterCommit(() => forgetSessionsOf(id));
    return contactFor(staff, after);
  });
}

function auditedFields(row: StaffUserRow) {
  return {
    user_type: row.userType,
    site_role: row.siteRole,
    suspended_until: row.suspendedUntil?.toISOString() ?? null,
  };
}
