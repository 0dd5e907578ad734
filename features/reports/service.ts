import { and, asc, desc, eq, inArray, isNull, or, sql, type SQL } from "drizzle-orm";
import type { Executor } from "../../server/db/client.ts";
import { moderationCases, moderationDecisions, reports, users } from "../../server/db/schema/index.ts";
import type { CaseStatus, ModerationAction, ReportReason } from "../../server/db/schema/reports.ts";
import { AppError } from "../../common/app-error.ts";
import { assertDailyAllowance } from "../trust/limits.ts";
import { authorize } from "../../common/policy.ts";
import { inTransaction, type ServiceOptions, type Transaction } from "../../server/lib/transactions.ts";
import { countInstance } from "../../server/lib/single-instance.ts";
import type { Viewer } from "../accounts/viewer.ts";
import { loadCircleAccessMap } from "../circles/access.server.ts";
import { circleRows } from "../circles/tree.server.ts";
import { emit } from "../events/bus.ts";
import { acceptsInteraction, loadSubject, subjectKind } from "../subjects/registry.ts";
import type { SubjectType } from "../subjects/types.ts";
import type { CasesQuery, ReportInput, ResolveInput } from "./schema.ts";
import { canModerate, isSiteModerator, moderatesIn, siteModeratorReaches } from "./visibility.ts";
import { moderationTag } from "../../server/lib/cache-tags.ts";
import { reporterStanding, reportWeight } from "./weight.ts";

/*
 * Reports and moderation on any subject of the registry. All open reports on one subject form
 * one case (a partial unique index keeps it one); enough distinct reporters hide the subject until
 * a moderator decides; a decision hides, restores, deletes or dismisses, with a note, recorded in
 * the case's history and told to the reporters and the author by `moderation.decided`.
 */
countInstance("reports/settings");

const settings = { hideThreshold: 5 };

/** Set once at start-up from the configuration (`REPORT_HIDE_THRESHOLD`). */
export function configureReports(options: { hideThreshold: number }): void {
  settings.hideThreshold = Math.max(1, Math.floor(options.hideThreshold));
}

export function reportHideThreshold(): number {
  return settings.hideThreshold;
}

export interface ReportResult {
  caseId: number;
  reportId: number;
  /** Whether the subject is hidden now. */
  hidden: boolean;
  /** Whether the report is on an open case (false: kept on a decided case, which reopens only after an edit). */
  open: boolean;
}

/**
 * Reports a subject the viewer may read (`not_found` otherwise, like its pages). The same reporter
 * on the same case is `repeated_flagging`; the case opens with the first report, and a decided
 * case reopens (as a new case) only when the subject was edited after the decision; until then a
 * report is kept on the decided case. When the weights of its reports (each by its reporter's
 * standing, `reportWeight`) reach the threshold, the subject is hidden until reviewed. One statement at a time per subject (an advisory lock), so two first
 * reports at once still make one case.
 */
export async function reportSubject(
  options: ServiceOptions,
  viewer: Viewer,
  type: string,
  id: number,
  input: ReportInput,
): Promise<ReportResult> {
  return inTransaction(options, async (tx) => {
    // Only what its registration lets readers report, and moderation can hide (a circle cannot).
    if (!acceptsInteraction(type, "reports")) throw new AppError("not_found");
    const { setHidden } = subjectKind(type);
    if (!setHidden) throw new AppError("not_found");
    const subject = await loadSubject(tx.db, viewer, type, id);
    if (subject.authorId === viewer.id) throw new AppError("cannot_report_own");
    await tx.db.execute(sql`select pg_advisory_xact_lock(hashtext(${`reports:${subject.type}:${subject.id}`}))`);
    const [latest] = await tx.db
      .select()
      .from(moderationCases)
      .where(and(eq(moderationCases.subjectType, subject.type), eq(moderationCases.subjectId, subject.id)))
      .orderBy(desc(moderationCases.createdAt), desc(moderationCases.id))
      .limit(1);
    const circleId = subject.access?.circle.id ?? null;
    let current = latest;
    const editedSince =
      latest?.status === "decided" &&
      latest.decision !== "delete" &&
      subject.editedAt != null &&
      latest.decidedAt !== null &&
      subject.editedAt > latest.decidedAt;
    if (!latest || editedSince) {
      const [opened] = await tx.db
        .insert(moderationCases)
        .values({
          subjectType: subject.type,
          subjectId: subject.id,
          circleId,
          authorId: subject.authorId,
          title: subject.title.slice(0, 200),
          path: subject.path,
          subjectEditedAt: subject.editedAt ?? null,
          hidden: subject.hiddenAt != null,
        })
        .returning();
      current = opened!;
    }
    const theCase = current!;
    await assertDailyAllowance(tx.db, viewer.id, "report");
    const weight = reportWeight(await reporterStanding(tx.db, viewer.id));
    const [report] = await tx.db
      .insert(reports)
      .values({ caseId: theCase.id, reporterId: viewer.id, reason: input.reason, description: input.description, weight })
      .onConflictDoNothing()
      .returning({ id: reports.id });
    if (!report) throw new AppError("repeated_flagging");
    const open = theCase.status === "open";
    let hidden = theCase.hidden;
    const tags = [moderationTag];
    if (open) {
      await tx.db
        .update(moderationCases)
        .set({ reporterCount: sql`${moderationCases.reporterCount} + 1`, title: subject.title.slice(0, 200), path: subject.path })
        .where(eq(moderationCases.id, theCase.id));
      const [score] = await tx.db
        .select({ total: sql<number>`coalesce(sum(${reports.weight}), 0)`.mapWith(Number) })
        .from(reports)
        .where(eq(reports.caseId, theCase.id));
      // Weighed, not counted: new accounts' reports count less (features/reports/weight.ts).
      if (!hidden && score!.total >= settings.hideThreshold - 1e-9) {
        tags.push(...(await setHidden(tx, subject.id, new Date())));
        await tx.db.update(moderationCases).set({ hidden: true }).where(eq(moderationCases.id, theCase.id));
        hidden = true;
      }
    }
    await emit(tx, {
      verb: "report.created",
      actorId: viewer.id,
      subjectType: subject.type,
      subjectId: subject.id,
      data: { caseId: theCase.id, reason: input.reason, opened: theCase.id !== latest?.id, hidden: hidden && !theCase.hidden },
    });
    tx.invalidate(...tags);
    return { caseId: theCase.id, reportId: report.id, hidden, open };
  });
}

export interface CaseReport {
  id: number;
  reason: ReportReason;
  description: string;
  createdAt: Date;
  reporter: { id: number; username: string; nickname: string };
}

export interface CaseDecision {
  id: number;
  action: ModerationAction;
  note: string;
  createdAt: Date;
  actor: { id: number; username: string; nickname: string } | null;
}

export interface ModerationCase {
  id: number;
  subjectType: SubjectType;
  subjectId: number;
  title: string;
  path: string;
  circleId: number | null;
  author: { id: number; username: string; nickname: string } | null;
  status: CaseStatus;
  hidden: boolean;
  reporterCount: number;
  decision: ModerationAction | null;
  decidedAt: Date | null;
  createdAt: Date;
  /** The distinct reasons, most frequent first. */
  reasons: ReportReason[];
  reports: CaseReport[];
  history: CaseDecision[];
}

/** The ids of a circle and of all its sub-circles. */
async function circleAndDescendants(db: Executor, circleId: number): Promise<number[]> {
  const rows = await circleRows(db);
  const children = new Map<number, number[]>();
  for (const row of rows) if (row.parentId !== null) children.set(row.parentId, [...(children.get(row.parentId) ?? []), row.id]);
  const ids: number[] = [];
  const stack = [circleId];
  while (stack.length > 0 && ids.length < 10_000) {
    const next = stack.pop()!;
    ids.push(next);
    stack.push(...(children.get(next) ?? []));
  }
  return ids;
}

export const casesPerPage = 50;

/**
 * A moderation queue, newest case first: with `circle_id`, the cases of that circle and its
 * sub-circles, for its moderators (master and above there or above it) and site moderators;
 * without it, every case, for site moderators only. A site moderator's cases are those outside
 * circles and in circles whose content they read (`siteModeratorReaches`): members-only and
 * restricted circles' cases are their own moderators'. Anyone else: 403 (401 for visitors).
 */
export async function listCases(db: Executor, viewer: Viewer | null, query: CasesQuery): Promise<ModerationCase[]> {
  if (!viewer) throw new AppError("not_authenticated");
  const accesses = await loadCircleAccessMap(db, viewer);
  let circleIds: number[] | null = null;
  // A site moderator's reach: cases outside circles and in circles whose content they read.
  let reach: SQL | undefined;
  if (query.circle_id !== undefined) {
    if (!accesses.has(query.circle_id)) throw new AppError("not_found");
    const moderates = moderatesIn(accesses, query.circle_id);
    authorize(viewer, moderates || (siteModeratorReaches(accesses, query.circle_id) && (await isSiteModerator(db, viewer.id))));
    circleIds = await circleAndDescendants(db, query.circle_id);
    if (!moderates) circleIds = circleIds.filter((id) => siteModeratorReaches(accesses, id));
    if (circleIds.length === 0) return [];
  } else {
    authorize(viewer, await isSiteModerator(db, viewer.id));
    const readable = [...accesses.keys()].filter((id) => siteModeratorReaches(accesses, id) || moderatesIn(accesses, id));
    reach = or(isNull(moderationCases.circleId), readable.length > 0 ? inArray(moderationCases.circleId, readable) : undefined);
  }
  const rows = await db
    .select({ row: moderationCases, author: { id: users.id, username: users.username, nickname: users.nickname } })
    .from(moderationCases)
    .leftJoin(users, eq(users.id, moderationCases.authorId))
    .where(
      and(
        query.status === "all" ? undefined : eq(moderationCases.status, query.status),
        circleIds ? inArray(moderationCases.circleId, circleIds) : undefined,
        reach,
      ),
    )
    .orderBy(desc(moderationCases.createdAt), desc(moderationCases.id))
    .limit(casesPerPage);
  return withDetails(db, rows);
}

async function withDetails(
  db: Executor,
  rows: { row: typeof moderationCases.$inferSelect; author: { id: number; username: string; nickname: string } | null }[],
): Promise<ModerationCase[]> {
  const ids = rows.map(({ row }) => row.id);
  const [reportRows, decisionRows] =
    ids.length === 0
      ? [[], []]
      : await Promise.all([
          db
            .select({ report: reports, reporter: { id: users.id, username: users.username, nickname: users.nickname } })
            .from(reports)
            .innerJoin(users, eq(users.id, reports.reporterId))
            .where(inArray(reports.caseId, ids))
            .orderBy(asc(reports.createdAt), asc(reports.id)),
          db
            .select({ decision: moderationDecisions, actor: { id: users.id, username: users.username, nickname: users.nickname } })
            .from(moderationDecisions)
            .leftJoin(users, eq(users.id, moderationDecisions.actorId))
            .where(inArray(moderationDecisions.caseId, ids))
            .orderBy(asc(moderationDecisions.createdAt), asc(moderationDecisions.id)),
        ]);
  return rows.map(({ row, author }) => {
    const caseReports: CaseReport[] = reportRows
      .filter(({ report }) => report.caseId === row.id)
      .map(({ report, reporter }) => ({
        id: report.id,
        reason: report.reason,
        description: report.description,
        createdAt: report.createdAt,
        reporter,
      }));
    const frequency = new Map<ReportReason, number>();
    for (const report of caseReports) frequency.set(report.reason, (frequency.get(report.reason) ?? 0) + 1);
    return {
      id: row.id,
      subjectType: row.subjectType as SubjectType,
      subjectId: row.subjectId,
      title: row.title,
      path: row.path,
      circleId: row.circleId,
      author,
      status: row.status,
      hidden: row.hidden,
      reporterCount: row.reporterCount,
      decision: row.decision,
      decidedAt: row.decidedAt,
      createdAt: row.createdAt,
      reasons: [...frequency.entries()].sort((a, b) => b[1] - a[1]).map(([reason]) => reason),
      reports: caseReports,
      history: decisionRows
        .filter(({ decision }) => decision.caseId === row.id)
        .map(({ decision, actor }) => ({
          id: decision.id,
          action: decision.action,
          note: decision.note,
          createdAt: decision.createdAt,
          actor: actor && actor.id !== null ? actor : null,
        })),
    };
  });
}

/** One case with its reports and history (moderators of its circle, site moderators). */
export async function getCase(db: Executor, viewer: Viewer | null, caseId: number): Promise<ModerationCase> {
  if (!viewer) throw new AppError("not_authenticated");
  const rows = await db
    .select({ row: moderationCases, author: { id: users.id, username: users.username, nickname: users.nickname } })
    .from(moderationCases)
    .leftJoin(users, eq(users.id, moderationCases.authorId))
    .where(eq(moderationCases.id, caseId));
  const found = rows[0];
  if (!found) throw new AppError("not_found");
  authorize(viewer, await canModerate(db, viewer, found.row.circleId));
  return (await withDetails(db, rows))[0]!;
}

/**
 * A moderator's decision on a case: `hide` (readable only by its author and moderators, with a
 * notice), `restore` and `dismiss` (shown again; dismiss: the reports were unfounded), `delete`
 * (the kind's own delete path, its dependents with it). The case is decided, the decision written
 * to its history with the note, who and when, and `moderation.decided` told to the reporters and
 * the author (never the moderator), all in one transaction. A case whose subject was deleted is
 * closed (`case_closed`); a kind that cannot be deleted answers `moderation_action_unavailable`.
 */
export async function resolveCase(options: ServiceOptions, viewer: Viewer, caseId: number, input: ResolveInput): Promise<ModerationCase> {
  await inTransaction(options, async (tx) => {
    const [row] = await tx.db.select().from(moderationCases).where(eq(moderationCases.id, caseId)).for("update");
    if (!row) throw new AppError("not_found");
    authorize(viewer, await canModerate(tx.db, viewer, row.circleId));
    if (row.decision === "delete") throw new AppError("case_closed");
    const kind = subjectKind(row.subjectType as SubjectType);
    const now = new Date();
    const tags: string[] = [moderationTag];
    const hidden = row.hidden;
    if (input.action === "delete" && !kind.remove) throw new AppError("moderation_action_unavailable");
    if (!kind.setHidden) throw new AppError("moderation_action_unavailable");
    await tx.db
      .update(moderationCases)
      .set({ status: "decided", decision: input.action, decidedBy: viewer.id, decidedAt: now, hidden: input.action === "hide" })
      .where(eq(moderationCases.id, caseId));
    await tx.db.insert(moderationDecisions).values({ caseId, actorId: viewer.id, action: input.action, note: input.note });
    if (input.action === "hide") {
      if (!hidden) tags.push(...(await kind.setHidden(tx, row.subjectId, now)));
    } else if (input.action === "restore" || input.action === "dismiss") {
      if (hidden) tags.push(...(await kind.setHidden(tx, row.subjectId, null)));
    }
    const reporters = await tx.db.select({ id: reports.reporterId }).from(reports).where(eq(reports.caseId, caseId));
    await emit(tx, {
      verb: "moderation.decided",
      actorId: viewer.id,
      subjectType: row.subjectType as SubjectType,
      subjectId: row.subjectId,
      data: { caseId, action: input.action, note: input.note, title: row.title, authorId: row.authorId },
      recipientIds: [...reporters.map((reporter) => reporter.id), ...(row.authorId !== null ? [row.authorId] : [])],
    });
    // Last: the kind's own deletion (its dependents take the subject's open cases, never this decided one).
    if (input.action === "delete") await kind.remove!(tx, row.subjectId, viewer.id);
    tx.invalidate(...tags);
  });
  return getCase(options.db, viewer, caseId);
}

/**
 * The open case on a subject, opened (with no reports) when there is none: staff hiding or
 * restoring from the admin area decide it through `resolveCase`, the reports' own path, so the
 * author hears the decision and its note like any other. Only moderators reach this.
 */
export async function openCaseForSubject(tx: Transaction, viewer: Viewer, type: string, id: number): Promise<number> {
  const subject = await loadSubject(tx.db, viewer, type, id);
  if (!subjectKind(subject.type).setHidden) throw new AppError("moderation_action_unavailable");
  authorize(viewer, await canModerate(tx.db, viewer, subject.access?.circle.id ?? null));
  await tx.db.execute(sql`select pg_advisory_xact_lock(hashtext(${`reports:${subject.type}:${subject.id}`}))`);
  const [open] = await tx.db
    .select({ id: moderationCases.id })
    .from(moderationCases)
    .where(
      and(eq(moderationCases.subjectType, subject.type), eq(moderationCases.subjectId, subject.id), eq(moderationCases.status, "open")),
    )
    .limit(1);
  if (open) return open.id;
  const [opened] = await tx.db
    .insert(moderationCases)
    .values({
      subjectType: subject.type,
      subjectId: subject.id,
      circleId: subject.access?.circle.id ?? null,
      authorId: subject.authorId,
      title: subject.title.slice(0, 200),
      path: subject.path,
      subjectEditedAt: subject.editedAt ?? null,
      hidden: subject.hiddenAt != null,
    })
    .returning({ id: moderationCases.id });
  return opened!.id;
}

/**
 * The notice a hidden subject's page shows its author and moderators (nobody else can open it):
 * `pending` while reports hide it until reviewed, `hidden` after a moderator hid it; null when shown.
 * Read from the subject's latest case (one indexed row).
 */
export async function moderationNotice(db: Executor, type: SubjectType, id: number): Promise<"pending" | "hidden" | null> {
  const [latest] = await db
    .select({ status: moderationCases.status, hidden: moderationCases.hidden })
    .from(moderationCases)
    .where(and(eq(moderationCases.subjectType, type), eq(moderationCases.subjectId, id)))
    .orderBy(desc(moderationCases.createdAt), desc(moderationCases.id))
    .limit(1);
  if (!latest?.hidden) return null;
  return latest.status === "open" ? "pending" : "hidden";
}
