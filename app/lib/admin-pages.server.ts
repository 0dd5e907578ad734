import { data } from "react-router";
import type { AppContext } from "../context.ts";
import { translator } from "../../common/i18n.ts";
import { pageUrl } from "../../common/locale.ts";
import { dispatchIntent, formAction, type FormFailure } from "../../server/lib/operation.ts";
import { requireStaff } from "../../features/admin/staff.ts";
import { visibleSections, type StaffAction } from "../../features/admin/policy.ts";
import { listAudit, auditQuerySchema } from "../../features/admin/audit.ts";
import { getStaffUser, searchUsers, userSearchSchema } from "../../features/admin/users.ts";
import { linkedAccounts } from "../../features/admin/profile-reset.ts";
import { dashboard, jobsOverview, lastLedgerCheck } from "../../features/admin/operations-support.ts";
import {
  ledgerCheckOperation,
  presentAuditRow,
  presentLedgerCheck,
  presentStaffUser,
  presentStaffUserDetail,
  resetProfileOperation,
  retryJobOperation,
  updateUserOperation,
} from "../../features/admin/operations.ts";
import { assertFormCsrf, readForm } from "./context.server.ts";
import { withFormToken } from "./circle-pages.server.ts";
import { correctionIntents, correctionsLoaderPart } from "./admin-trust-pages.server.ts";

/*
 * The /admin pages' loaders and actions. Every one asks the site-role policy on the server
 * (`requireStaff`), whatever the menu showed; forms are plain posts that work without JavaScript.
 */

const staff = (app: AppContext, action: StaffAction) => requireStaff(app.db, app.viewer, action);

export async function adminLayoutLoader(app: AppContext) {
  const member = await staff(app, "view_dashboard");
  return { role: member.role, sections: visibleSections(member.role).map((section) => ({ key: section.key, path: section.path })) };
}

export async function dashboardLoader(app: AppContext) {
  const member = await staff(app, "view_dashboard");
  const board = await dashboard(app.db, member, app.now());
  return {
    ...board,
    canSeeLedger: member.role === "admin",
    lastLedgerCheck: board.lastLedgerCheck
      ? { consistent: board.lastLedgerCheck.consistent, ranAt: board.lastLedgerCheck.ranAt.toISOString() }
      : null,
  };
}

export async function usersLoader(app: AppContext, request: Request) {
  const member = await staff(app, "view_users");
  const parsed = userSearchSchema.safeParse(Object.fromEntries(pageUrl(request.url).searchParams));
  const query = parsed.success ? parsed.data : {};
  const page = await searchUsers(app.db, member, query);
  return { q: query.q ?? "", results: page.rows.map(presentStaffUser), nextCursor: page.nextCursor };
}

export async function userLoader(app: AppContext, id: number) {
  const member = await staff(app, "view_users");
  const user = presentStaffUserDetail({ ...(await getStaffUser(app.db, member, id)), linked: await linkedAccounts(app.db, id) });
  return withFormToken(app, { user, canSetTypeAndRole: member.role === "admin" });
}

/** The durations the suspension form offers, as `suspended_until` from now; "lift" is null. */
function suspensionUntil(choice: string, now: Date): string | null | undefined {
  const days = { "1d": 1, "7d": 7, "30d": 30 }[choice];
  if (days) return new Date(now.getTime() + days * 24 * 3600_000).toISOString();
  if (choice === "permanent") return "9999-12-31T00:00:00.000Z";
  if (choice === "lift") return null;
  return undefined;
}

const formFailed = (failure: FormFailure) =>
  data({ formError: failure.formError ?? Object.values(failure.fieldErrors ?? {})[0] }, { status: failure.status });

export async function userAction(app: AppContext, request: Request, id: string) {
  const form = await readForm(request);
  assertFormCsrf(app, form);
  const t = translator(app.locale);
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" && value !== "" ? value : undefined;
  };
  const done = () => ({ notice: t("admin:users.saved") });
  const errorScreen = (error: { status: number }) => error.status === 401 || error.status === 404;
  return dispatchIntent(
    { app, request, form, params: { id } },
    {
      type_role: formAction(updateUserOperation, {
        body: () => ({ user_type: text("user_type"), site_role: text("site_role"), reason: text("reason") }),
        done,
        failed: formFailed,
        errorScreen,
      }),
      reset: formAction(resetProfileOperation, {
        body: (form) => ({ fields: form.getAll("fields").map(String), reason: text("reason") }),
        done,
        failed: formFailed,
        errorScreen,
      }),
      suspension: formAction(updateUserOperation, {
        body: () => ({ suspended_until: suspensionUntil(text("duration") ?? "", app.now()), reason: text("reason") }),
        done,
        failed: formFailed,
        errorScreen,
      }),
    },
  );
}

export async function auditLoader(app: AppContext, request: Request) {
  await staff(app, "view_audit");
  const raw = Object.fromEntries([...pageUrl(request.url).searchParams].filter(([, value]) => value !== ""));
  const parsed = auditQuerySchema.safeParse(raw);
  const query = parsed.success ? parsed.data : {};
  const page = await listAudit(app.db, query);
  return {
    filters: {
      actor: query.actor ?? "",
      action: query.action ?? "",
      target: query.target ?? "",
      from: query.from ?? "",
      to: query.to ?? "",
    },
    results: page.rows.map(presentAuditRow),
    nextCursor: page.nextCursor,
  };
}

export async function jobsLoader(app: AppContext) {
  await staff(app, "manage_jobs");
  const overview = await jobsOverview(app.db);
  const run = (r: (typeof overview.recent)[number]) => ({
    job: r.job,
    id: r.jobId,
    startedAt: r.startedAt.toISOString(),
    durationMs: r.durationMs,
    outcome: r.outcome,
    error: r.error?.split("\n")[0] ?? null,
  });
  return withFormToken(app, {
    schedules: overview.schedules.map((s) => ({ name: s.name, schedule: s.schedule, lastRun: s.lastRun ? run(s.lastRun) : null })),
    recent: overview.recent.map(run),
    failed: overview.failed.map(run),
  });
}

export async function jobsAction(app: AppContext, request: Request) {
  const form = await readForm(request);
  assertFormCsrf(app, form);
  const t = translator(app.locale);
  return dispatchIntent(
    { app, request, form, params: {} },
    {
      retry: formAction(retryJobOperation, {
        params: ({ form }) => ({ id: form.get("job_id") }),
        done: () => ({ notice: t("admin:jobs.retried") }),
        failed: formFailed,
        errorScreen: (error) => error.status === 401,
      }),
    },
  );
}

export async function ledgerLoader(app: AppContext) {
  await staff(app, "manage_ledger");
  const last = await lastLedgerCheck(app.db);
  return withFormToken(app, { last: last ? presentLedgerCheck(last) : null, ...(await correctionsLoaderPart(app)) });
}

export async function ledgerAction(app: AppContext, request: Request) {
  const form = await readForm(request);
  assertFormCsrf(app, form);
  const t = translator(app.locale);
  return dispatchIntent(
    { app, request, form, params: {} },
    {
      check: formAction(ledgerCheckOperation, {
        done: () => ({ notice: t("admin:ledger.checked") }),
        failed: formFailed,
        errorScreen: (error) => error.status === 401,
      }),
      ...correctionIntents(app),
    },
  );
}
