import { and, asc, count, desc, eq, gt, min } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Executor } from "../../server/db/client.ts";
import { friendLinks, users } from "../../server/db/schema/index.ts";
import { inTransaction, type ServiceOptions } from "../../server/lib/transactions.ts";
import { friendLinksTag } from "../../server/lib/cache-tags.ts";
import { AppError } from "../../common/app-error.ts";
import { authorize } from "../../common/policy.ts";
import { emit } from "../events/bus.ts";
import { loadSiteRole } from "../accounts/site-role.ts";
import type { Viewer } from "../accounts/viewer.ts";
import { can } from "./policy.ts";
import { requireStaff } from "../admin/staff.ts";
import { recordAudit, requireReason } from "../admin/audit.ts";
import type { LinkLanguage, LinkStatus } from "./constants.ts";
import type { LinkReview, LinkSuggestion } from "./schema.ts";

/** At most this many suggestions per user per window, counted from the rows (page form and API alike). */
export const linkSuggestionRateLimit = { max: 5, windowSeconds: 86_400 } as const;

export interface LinkRow {
  id: number;
  name: string;
  url: string;
  description: string;
  language: LinkLanguage;
  status: LinkStatus;
  suggestedBy: string | null;
  reviewNote: string;
  createdAt: Date;
  reviewedAt: Date | null;
}

const suggester = alias(users, "suggester");
const columns = {
  id: friendLinks.id,
  name: friendLinks.name,
  url: friendLinks.url,
  description: friendLinks.description,
  language: friendLinks.language,
  status: friendLinks.status,
  suggestedBy: suggester.username,
  reviewNote: friendLinks.reviewNote,
  createdAt: friendLinks.createdAt,
  reviewedAt: friendLinks.reviewedAt,
};

function selectLinks(db: Executor) {
  return db.select(columns).from(friendLinks).leftJoin(suggester, eq(suggester.id, friendLinks.suggestedBy));
}

/** The links `/link` lists: approved ones, in the order they were approved. */
export async function listApprovedLinks(db: Executor): Promise<LinkRow[]> {
  return selectLinks(db).where(eq(friendLinks.status, "approved")).orderBy(asc(friendLinks.reviewedAt), asc(friendLinks.id)).limit(500);
}

/** The viewer's own suggestions with where they stand, newest first. */
export async function listOwnSuggestions(db: Executor, viewer: Viewer): Promise<LinkRow[]> {
  authorize(viewer, can(viewer, "suggest"));
  return selectLinks(db).where(eq(friendLinks.suggestedBy, viewer.id)).orderBy(desc(friendLinks.createdAt), desc(friendLinks.id)).limit(50);
}

/** Links in one status (or all) for site moderators, newest first. */
export async function listLinksForReview(db: Executor, viewer: Viewer, status: LinkStatus | "all"): Promise<LinkRow[]> {
  authorize(viewer, can(viewer, "review", await loadSiteRole(db, viewer.id)));
  return selectLinks(db)
    .where(status === "all" ? undefined : eq(friendLinks.status, status))
    .orderBy(desc(friendLinks.createdAt), desc(friendLinks.id))
    .limit(200);
}

async function assertUnderRateLimit(db: Executor, userId: number, now: Date): Promise<void> {
  const since = new Date(now.getTime() - linkSuggestionRateLimit.windowSeconds * 1000);
  const [row] = await db
    .select({ count: count(), oldest: min(friendLinks.createdAt) })
    .from(friendLinks)
    .where(and(eq(friendLinks.suggestedBy, userId), gt(friendLinks.createdAt, since)));
  if (row && row.count >= linkSuggestionRateLimit.max) {
    const elapsed = row.oldest ? (now.getTime() - new Date(row.oldest).getTime()) / 1000 : 0;
    throw new AppError("rate_limited", { params: { seconds: Math.max(1, Math.ceil(linkSuggestionRateLimit.windowSeconds - elapsed)) } });
  }
}

/**
 * A suggested friend link. A reader's waits for review; a site moderator's is the staff curating,
 * so it is listed at once (and `/link` drops its cached copy).
 */
export async function suggestLink(options: ServiceOptions & { now: Date }, viewer: Viewer, input: LinkSuggestion): Promise<LinkRow> {
  authorize(viewer, can(viewer, "suggest"));
  const staff = can(viewer, "review", await loadSiteRole(options.db, viewer.id));
  return inTransaction(options, async (tx) => {
    if (!staff) await assertUnderRateLimit(tx.db, viewer.id, options.now);
    const [row] = await tx.db
      .insert(friendLinks)
      .values({
        ...input,
        suggestedBy: viewer.id,
        status: staff ? "approved" : "pending",
        reviewedBy: staff ? viewer.id : null,
        reviewedAt: staff ? options.now : null,
        createdAt: options.now,
      })
      .returning({ id: friendLinks.id });
    await emit(tx, { actorId: viewer.id, verb: "link.suggested", subjectId: viewer.id, data: { linkId: row!.id } });
    if (staff) tx.invalidate(friendLinksTag);
    const [created] = await selectLinks(tx.db).where(eq(friendLinks.id, row!.id));
    return created!;
  });
}

/** A site moderator approves (listed on `/link`) or rejects (taken off it) a link. */
export async function reviewLink(
  options: ServiceOptions & { now: Date },
  viewer: Viewer,
  id: number,
  input: LinkReview,
  address = "",
): Promise<LinkRow> {
  const staff = await requireStaff(options.db, viewer, "review_links");
  const why = requireReason(input.reason);
  return inTransaction(options, async (tx) => {
    const [current] = await tx.db
      .select({ id: friendLinks.id, status: friendLinks.status })
      .from(friendLinks)
      .where(eq(friendLinks.id, id))
      .for("update");
    if (!current) throw new AppError("not_found");
    await recordAudit(
      tx.db,
      { staff, address },
      {
        action: `link.${input.decision}`,
        target: `link:${id}`,
        before: { status: current.status },
        after: { status: input.decision === "approve" ? "approved" : "rejected", note: input.note },
        reason: why,
      },
    );
    await tx.db
      .update(friendLinks)
      .set({
        status: input.decision === "approve" ? "approved" : "rejected",
        reviewNote: input.note,
        reviewedBy: viewer.id,
        reviewedAt: options.now,
      })
      .where(eq(friendLinks.id, id));
    await emit(tx, { actorId: viewer.id, verb: "link.reviewed", subjectId: viewer.id, data: { linkId: id, decision: input.decision } });
    tx.invalidate(friendLinksTag);
    const [updated] = await selectLinks(tx.db).where(eq(friendLinks.id, id));
    return updated!;
  });
}
