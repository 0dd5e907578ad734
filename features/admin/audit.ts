import { and, desc, eq, gte, lt, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { Database, Executor } from "../../server/db/client.ts";
import { auditLog } from "../../server/db/schema/index.ts";
import { AppError } from "../../common/app-error.ts";
import type { Staff } from "./staff.ts";

/*
 * The audit log: one row per staff write and per command-line admin write, in the write's own
 * transaction. Rows are append-only (a database trigger refuses UPDATE, DELETE and TRUNCATE).
 */

export type AuditRow = typeof auditLog.$inferSelect;

/** Who wrote: a staff member (with the request's address) or the command line. */
export type AuditActor = { staff: Staff; address: string } | "cli";

export interface AuditEntry {
  action: string;
  target: string;
  before?: unknown;
  after?: unknown;
  reason: string;
}

/** Every staff write carries a reason: blank or missing is 400 `reason_required` (before any other check). */
export function requireReason(reason: string | null | undefined): string {
  const trimmed = (reason ?? "").trim();
  if (!trimmed) throw new AppError("reason_required");
  return trimmed.slice(0, 1000);
}

/** A body's `reason`: optional in the schema so that its absence is `reason_required`, not a generic validation failure. */
export const reasonField = z.string().max(1000).optional();

export async function recordAudit(db: Executor, actor: AuditActor, entry: AuditEntry): Promise<void> {
  await db.insert(auditLog).values({
    actorId: actor === "cli" ? null : actor.staff.id,
    actorName: actor === "cli" ? "cli" : actor.staff.username,
    actorRole: actor === "cli" ? "cli" : actor.staff.role,
    action: entry.action,
    target: entry.target,
    before: entry.before ?? null,
    after: entry.after ?? null,
    reason: entry.reason,
    address: actor === "cli" ? "" : actor.address,
  });
}

export const auditPageSize = 50;

export const auditQuerySchema = z.object({
  actor: z.string().trim().max(64).optional(),
  action: z.string().trim().max(64).optional(),
  target: z.string().trim().max(128).optional(),
  /** Days in Asia/Shanghai (YYYY-MM-DD), both included. */
  from: z.iso.date({ message: "validation:invalid_value" }).optional(),
  to: z.iso.date({ message: "validation:invalid_value" }).optional(),
  cursor: z.coerce.number().int().positive().optional(),
});

/** The instant a Beijing day (YYYY-MM-DD) begins, `days` later. */
function shanghaiDayStart(day: string, days = 0): Date {
  const start = new Date(`${day}T00:00:00+08:00`);
  return new Date(start.getTime() + days * 24 * 3600_000);
}
export type AuditQuery = z.infer<typeof auditQuerySchema>;

/** Newest first, filtered by actor (username, or "cli"), action and target (exact) and days (`from`, `to`); `cursor` is the last id seen. */
export async function listAudit(db: Database, query: AuditQuery): Promise<{ rows: AuditRow[]; nextCursor: number | null }> {
  const conditions: SQL[] = [];
  if (query.actor) conditions.push(sql`lower(${auditLog.actorName}) = ${query.actor.toLowerCase()}`);
  if (query.action) conditions.push(eq(auditLog.action, query.action));
  if (query.target) conditions.push(eq(auditLog.target, query.target));
  if (query.from) conditions.push(gte(auditLog.createdAt, shanghaiDayStart(query.from)));
  if (query.to) conditions.push(lt(auditLog.createdAt, shanghaiDayStart(query.to, 1)));
  if (query.cursor) conditions.push(lt(auditLog.id, query.cursor));
  const rows = await db
    .select()
    .from(auditLog)
    .where(conditions.length ? and(...conditions) : undefined)
    .orderBy(desc(auditLog.id))
    .limit(auditPageSize + 1);
  const more = rows.length > auditPageSize;
  const page = more ? rows.slice(0, auditPageSize) : rows;
  return { rows: page, nextCursor: more ? page[page.length - 1]!.id : null };
}
