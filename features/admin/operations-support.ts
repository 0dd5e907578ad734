import { and, count, desc, eq, gte, isNotNull, isNull } from "drizzle-orm";
import type { Database } from "../../server/db/client.ts";
import {
  adCampaigns,
  cashouts,
  ledgerChecks,
  moderationCases,
  tradeProgress,
  users,
  writings,
  questions,
  comments,
} from "../../server/db/schema/index.ts";
import { AppError } from "../../common/app-error.ts";
import { inTransaction, type ServiceOptions } from "../../server/lib/transactions.ts";
import { checkLedger, ledgerIsConsistent, type LedgerCheckReport } from "../ledger/check.ts";
import { failedJobs, recentJobRuns, jobSchedules, retryFailedJob, type JobRun, type JobScheduleRow } from "../jobs/admin.ts";
import { currentJobQueue } from "../jobs/queue.ts";
import { recordAudit, requireReason } from "./audit.ts";
import { staffMay, type Staff } from "./staff.ts";
import type { StaffAction } from "./policy.ts";

/* The admin area's jobs, ledger and dashboard services (their routes: features/admin/api.ts). */

export interface StoredLedgerCheck {
  id: number;
  consistent: boolean;
  report: LedgerCheckReport;
  ranAt: Date;
}

export async function lastLedgerCheck(db: Database): Promise<StoredLedgerCheck | null> {
  const [row] = await db.select().from(ledgerChecks).orderBy(desc(ledgerChecks.id)).limit(1);
  return row ? { id: row.id, consistent: row.consistent, report: row.report as LedgerCheckReport, ranAt: row.ranAt } : null;
}

/** Runs `ledger-check` now, stores its result (the dashboard's "last check") and audits the run. */
export async function runLedgerCheck(
  options: ServiceOptions,
  staff: Staff,
  address: string,
  reason: string | undefined,
): Promise<StoredLedgerCheck> {
  const why = requireReason(reason);
  return inTransaction(options, async (tx) => {
    const report = await checkLedger(tx.db);
    const consistent = ledgerIsConsistent(report);
    const [row] = await tx.db.insert(ledgerChecks).values({ actorId: staff.id, consistent, report }).returning();
    await recordAudit(tx.db, { staff, address }, { action: "ledger.check", target: "ledger", after: { consistent }, reason: why });
    return { id: row!.id, consistent, report, ranAt: row!.ranAt };
  });
}

export interface JobsOverview {
  schedules: JobScheduleRow[];
  recent: JobRun[];
  failed: JobRun[];
}

export async function jobsOverview(db: Database): Promise<JobsOverview> {
  return { schedules: await jobSchedules(db), recent: await recentJobRuns(db, 30), failed: await failedJobs(db) };
}

/** A failed job back on its queue, audited: 404 when no job with this id failed for good (or no queue runs here). */
export async function retryJob(
  options: ServiceOptions,
  staff: Staff,
  address: string,
  jobId: string,
  reason: string | undefined,
): Promise<{ retried: true }> {
  const why = requireReason(reason);
  const queue = currentJobQueue();
  if (!queue || !(await retryFailedJob(options.db, queue, jobId))) throw new AppError("not_found");
  await inTransaction(options, (tx) =>
    recordAudit(tx.db, { staff, address }, { action: "job.retry", target: `job:${jobId}`, reason: why }),
  );
  return { retried: true };
}

/**
 * What the dashboard counts as waiting for staff: one entry per queue, shown to whoever may open
 * it (`action`), linking to it. A new queue (cashouts, campaigns, missions, disputes) appends its
 * entry here and its label to `admin:dashboard.queues`.
 */
export interface AttentionQueue {
  key: string;
  path: string;
  action: StaffAction;
  count(db: Database): Promise<number>;
}

export const attentionQueues: AttentionQueue[] = [
  {
    key: "open_reports",
    path: "/admin/reports",
    action: "moderate_reports",
    count: async (db) => (await db.select({ n: count() }).from(moderationCases).where(eq(moderationCases.status, "open")))[0]?.n ?? 0,
  },
  { key: "failed_jobs", path: "/admin/jobs", action: "manage_jobs", count: async (db) => (await failedJobs(db, 1000)).length },
  {
    key: "open_disputes",
    path: "/admin/disputes",
    action: "review_trade_disputes",
    count: async (db) =>
      (
        await db
          .select({ n: count() })
          .from(tradeProgress)
          .where(and(isNotNull(tradeProgress.disputedAt), isNull(tradeProgress.disputeDecision)))
      )[0]?.n ?? 0,
  },
  {
    key: "cashouts_to_review",
    path: "/admin/cashouts",
    action: "manage_cashouts",
    count: async (db) => (await db.select({ n: count() }).from(cashouts).where(eq(cashouts.status, "requested")))[0]?.n ?? 0,
  },
  {
    key: "campaigns_to_review",
    path: "/admin/ads",
    action: "manage_ledger",
    count: async (db) => (await db.select({ n: count() }).from(adCampaigns).where(eq(adCampaigns.status, "pending_review")))[0]?.n ?? 0,
  },
];

export interface Dashboard {
  queues: { key: string; path: string; count: number }[];
  lastLedgerCheck: StoredLedgerCheck | null;
  signUpsToday: number;
  contentToday: number;
}

/** Today in Asia/Shanghai (UTC+8, no daylight saving) began at this instant. */
export function startOfShanghaiDay(now: Date): Date {
  const shifted = new Date(now.getTime() + 8 * 3600_000);
  shifted.setUTCHours(0, 0, 0, 0);
  return new Date(shifted.getTime() - 8 * 3600_000);
}

/** What needs attention: only the queues the staff member may open, money only for admins. */
export async function dashboard(db: Database, staff: Staff, now: Date): Promise<Dashboard> {
  const since = startOfShanghaiDay(now);
  const [signUps] = await db.select({ n: count() }).from(users).where(gte(users.createdAt, since));
  const [written] = await db.select({ n: count() }).from(writings).where(gte(writings.publishedAt, since));
  const [asked] = await db.select({ n: count() }).from(questions).where(gte(questions.publishedAt, since));
  const [commented] = await db.select({ n: count() }).from(comments).where(gte(comments.createdAt, since));
  const content = (written?.n ?? 0) + (asked?.n ?? 0) + (commented?.n ?? 0);
  const queues: Dashboard["queues"] = [];
  for (const queue of attentionQueues) {
    if (staffMay(staff, queue.action)) queues.push({ key: queue.key, path: queue.path, count: await queue.count(db) });
  }
  return {
    queues,
    lastLedgerCheck: staffMay(staff, "manage_ledger") ? await lastLedgerCheck(db) : null,
    signUpsToday: signUps?.n ?? 0,
    contentToday: content,
  };
}
