import { z } from "zod";
import { defineOperation } from "../../server/lib/operation.ts";
import { siteRoles, userTypes } from "../accounts/constants.ts";
import { auditQuerySchema, listAudit, reasonField, type AuditRow } from "./audit.ts";
import { requireStaff } from "./staff.ts";
import {
  getStaffUser,
  searchUsers,
  updateStaffUser,
  userParams,
  userPatchSchema,
  userSearchSchema,
  type StaffUserDetail,
  type StaffUserRow,
} from "./users.ts";
import { jobsOverview, retryJob, runLedgerCheck, type JobsOverview, type StoredLedgerCheck } from "./operations-support.ts";
import type { JobRun } from "../jobs/admin.ts";
import { linkedAccounts, profileResetSchema, resetProfile, type LinkedAccount } from "./profile-reset.ts";

/* The admin area's operations: served by features/admin/api.ts and the /admin pages' forms. Each asks the site-role policy first. */

const staffUser = z.strictObject({
  id: z.number().int(),
  username: z.string(),
  nickname: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  user_type: z.enum(userTypes),
  site_role: z.enum(siteRoles),
  suspended_until: z.string().nullable(),
  suspension_reason: z.string(),
  created_at: z.string(),
});

export function presentStaffUser(row: StaffUserRow): z.infer<typeof staffUser> {
  return {
    id: row.id,
    username: row.username,
    nickname: row.nickname,
    email: row.email,
    phone: row.phone,
    user_type: row.userType,
    site_role: row.siteRole,
    suspended_until: row.suspendedUntil?.toISOString() ?? null,
    suspension_reason: row.suspensionReason,
    created_at: row.createdAt.toISOString(),
  };
}

export const listUsersOperation = defineOperation({
  name: "adminListUsers",
  input: { query: userSearchSchema },
  viewer: "signed-in",
  run: async (services, viewer, { query }) => searchUsers(services.db, await requireStaff(services.db, viewer, "view_users"), query),
  present: (page: { rows: StaffUserRow[]; nextCursor: number | null }) => ({
    results: page.rows.map(presentStaffUser),
    next_cursor: page.nextCursor,
  }),
  response: z.strictObject({ results: z.array(staffUser), next_cursor: z.number().int().nullable() }),
  failures: ["forbidden"],
});

const staffUserDetail = staffUser.extend({
  counts: z.strictObject({
    writings: z.number().int(),
    questions: z.number().int(),
    answers: z.number().int(),
    comments: z.number().int(),
    reports_filed: z.number().int(),
    cases_against: z.number().int(),
  }),
  sign_ins: z.array(z.strictObject({ created_at: z.string(), ip: z.string(), user_agent: z.string() })),
  wallet: z.strictObject({ gold: z.number().int(), sinecoin: z.number().int() }),
  statement: z.array(
    z.strictObject({ id: z.number().int(), kind: z.string(), currency: z.string(), amount: z.number().int(), created_at: z.string() }),
  ),
  linked_accounts: z.array(
    z.strictObject({ id: z.number().int(), username: z.string(), nickname: z.string(), addresses: z.array(z.string()) }),
  ),
});

export function presentStaffUserDetail(detail: StaffUserDetail & { linked: LinkedAccount[] }): z.infer<typeof staffUserDetail> {
  return {
    linked_accounts: detail.linked.map((account) => ({ ...account })),
    ...presentStaffUser(detail),
    counts: {
      writings: detail.counts.writings,
      questions: detail.counts.questions,
      answers: detail.counts.answers,
      comments: detail.counts.comments,
      reports_filed: detail.counts.reportsFiled,
      cases_against: detail.counts.casesAgainst,
    },
    sign_ins: detail.signIns.map((s) => ({ created_at: s.createdAt.toISOString(), ip: s.ip, user_agent: s.userAgent })),
    wallet: { gold: detail.wallet.gold, sinecoin: detail.wallet.sinecoin },
    statement: detail.statement.map((m) => ({
      id: m.id,
      kind: m.kind,
      currency: m.currency,
      amount: m.amount,
      created_at: m.createdAt.toISOString(),
    })),
  };
}

export const getUserOperation = defineOperation({
  name: "adminGetUser",
  input: { params: userParams },
  viewer: "signed-in",
  run: async (services, viewer, { params }) => ({
    ...(await getStaffUser(services.db, await requireStaff(services.db, viewer, "view_users"), params.id)),
    linked: await linkedAccounts(services.db, params.id),
  }),
  present: presentStaffUserDetail,
  response: staffUserDetail,
  failures: ["forbidden", "not_found"],
});

export const updateUserOperation = defineOperation({
  name: "adminUpdateUser",
  input: { params: userParams, body: userPatchSchema },
  viewer: "signed-in",
  run: async (services, viewer, { params, body }) =>
    updateStaffUser(services, await requireStaff(services.db, viewer, "view_users"), services.client.address, params.id, body),
  present: presentStaffUser,
  response: staffUser,
  failures: ["forbidden", "not_found", "reason_required"],
});

const auditRow = z.strictObject({
  id: z.number().int(),
  actor: z.strictObject({ id: z.number().int().nullable(), username: z.string(), role: z.string() }),
  action: z.string(),
  target: z.string(),
  before: z.unknown(),
  after: z.unknown(),
  reason: z.string(),
  address: z.string(),
  created_at: z.string(),
});

export function presentAuditRow(row: AuditRow): z.infer<typeof auditRow> {
  return {
    id: row.id,
    actor: { id: row.actorId, username: row.actorName, role: row.actorRole },
    action: row.action,
    target: row.target,
    before: row.before,
    after: row.after,
    reason: row.reason,
    address: row.address,
    created_at: row.createdAt.toISOString(),
  };
}

export const listAuditOperation = defineOperation({
  name: "adminListAudit",
  input: { query: auditQuerySchema },
  viewer: "signed-in",
  run: async (services, viewer, { query }) => {
    await requireStaff(services.db, viewer, "view_audit");
    return listAudit(services.db, query);
  },
  present: (page: { rows: AuditRow[]; nextCursor: number | null }) => ({
    results: page.rows.map(presentAuditRow),
    next_cursor: page.nextCursor,
  }),
  response: z.strictObject({ results: z.array(auditRow), next_cursor: z.number().int().nullable() }),
  failures: ["forbidden"],
});

const jobRun = z.strictObject({
  job: z.string(),
  id: z.string(),
  started_at: z.string(),
  duration_ms: z.number().int(),
  outcome: z.string(),
  error: z.string().nullable(),
  attempt: z.number().int(),
});

function presentRun(run: JobRun): z.infer<typeof jobRun> {
  return {
    job: run.job,
    id: run.jobId,
    started_at: run.startedAt.toISOString(),
    duration_ms: run.durationMs,
    outcome: run.outcome,
    error: run.error,
    attempt: run.attempt,
  };
}

export const listJobsOperation = defineOperation({
  name: "adminListJobs",
  input: {},
  viewer: "signed-in",
  run: async (services, viewer) => {
    await requireStaff(services.db, viewer, "manage_jobs");
    return jobsOverview(services.db);
  },
  present: (overview: JobsOverview) => ({
    schedules: overview.schedules.map((s) => ({ name: s.name, schedule: s.schedule, last_run: s.lastRun ? presentRun(s.lastRun) : null })),
    recent: overview.recent.map(presentRun),
    failed: overview.failed.map(presentRun),
  }),
  response: z.strictObject({
    schedules: z.array(z.strictObject({ name: z.string(), schedule: z.string(), last_run: jobRun.nullable() })),
    recent: z.array(jobRun),
    failed: z.array(jobRun),
  }),
  failures: ["forbidden"],
});

const reasonBody = z.strictObject({ reason: reasonField }).nullish();

export const retryJobOperation = defineOperation({
  name: "adminRetryJob",
  input: { params: z.object({ id: z.string().min(1).max(64) }), body: reasonBody },
  viewer: "signed-in",
  run: async (services, viewer, { params, body }) =>
    retryJob(services, await requireStaff(services.db, viewer, "manage_jobs"), services.client.address, params.id, body?.reason),
  present: (result: { retried: true }) => result,
  response: z.strictObject({ retried: z.literal(true) }),
  failures: ["forbidden", "not_found", "reason_required"],
});

const ledgerCheckAnswer = z.strictObject({
  id: z.number().int(),
  consistent: z.boolean(),
  ran_at: z.string(),
  transactions: z.number().int(),
  entries: z.number().int(),
  unbalanced_transactions: z.array(z.number().int()),
  incomplete_transactions: z.array(z.number().int()),
  mismatched_users: z.array(z.strictObject({ user_id: z.number().int(), field: z.string(), cached: z.number(), ledger: z.number() })),
});

export function presentLedgerCheck(check: StoredLedgerCheck): z.infer<typeof ledgerCheckAnswer> {
  return {
    id: check.id,
    consistent: check.consistent,
    ran_at: check.ranAt.toISOString(),
    transactions: check.report.transactions,
    entries: check.report.entries,
    unbalanced_transactions: check.report.unbalancedTransactions,
    incomplete_transactions: check.report.incompleteTransactions,
    mismatched_users: check.report.mismatchedUsers.map((u) => ({ user_id: u.userId, field: u.field, cached: u.cached, ledger: u.ledger })),
  };
}

export const ledgerCheckOperation = defineOperation({
  name: "adminLedgerCheck",
  input: { body: reasonBody },
  viewer: "signed-in",
  run: async (services, viewer, { body }) =>
    runLedgerCheck(services, await requireStaff(services.db, viewer, "manage_ledger"), services.client.address, body?.reason),
  present: presentLedgerCheck,
  response: ledgerCheckAnswer,
  failures: ["forbidden", "reason_required"],
});

export const resetProfileOperation = defineOperation({
  name: "adminResetProfile",
  input: { params: userParams, body: profileResetSchema },
  viewer: "signed-in",
  run: async (services, viewer, { params, body }) =>
    resetProfile(services, await requireStaff(services.db, viewer, "suspend_users"), services.client.address, params.id, body),
  present: (result: { nickname: string; avatar: string | null }) => result,
  response: z.strictObject({ nickname: z.string(), avatar: z.string().nullable() }),
  failures: ["forbidden", "not_found", "reason_required"],
});
