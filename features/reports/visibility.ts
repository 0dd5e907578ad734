import { eq } from "drizzle-orm";
import type { Executor } from "../../server/db/client.ts";
import { users } from "../../server/db/schema/index.ts";
import { AppError } from "../../common/app-error.ts";
import type { Viewer } from "../accounts/viewer.ts";
import { loadCircleAccessMap } from "../circles/access.server.ts";
import { canReadCircleContent, roleRank, type CircleAccess } from "../circles/policy.ts";

/*
 * Who may see what moderation hides, and who moderates where. Every kind's own read path asks
 * `assertNotHidden` (writings, books, chapters, entries, comments, profiles), so a hidden subject is
 * a 404 for everyone but its author and its moderators, on its pages and through the registry.
 */

/** Whether the user is a site moderator (site role `moderator` or `admin`). Read only when needed: hidden content and queues are rare. */
export async function isSiteModerator(db: Executor, userId: number): Promise<boolean> {
  const [row] = await db.select({ role: users.siteRole }).from(users).where(eq(users.id, userId)).limit(1);
  return row?.role === "moderator" || row?.role === "admin";
}

/** Whether the viewer moderates the circle: master or above in it or in any of its ancestors (a circle's moderators cover its sub-circles). */
export function moderatesIn(accesses: ReadonlyMap<number, CircleAccess>, circleId: number): boolean {
  let current = accesses.get(circleId);
  for (let depth = 0; current && depth < 64; depth += 1) {
    if (current.role !== null && roleRank[current.role] >= roleRank.master) return true;
    current = current.circle.parentId === null ? undefined : accesses.get(current.circle.parentId);
  }
  return false;
}

/** `moderatesIn` for one viewer and circle. */
export async function moderatesCircle(db: Executor, viewer: Pick<Viewer, "id"> | null, circleId: number): Promise<boolean> {
  if (!viewer) return false;
  return moderatesIn(await loadCircleAccessMap(db, viewer), circleId);
}

/**
 * Whether a site moderator's reach covers a case in this circle: outside circles (null) and in
 * circles whose content they may read. Members-only and restricted circles answer them 404 on
 * every read, so their cases are their own moderators' to decide: nobody decides blind, and no
 * decision opens a closed circle's content to someone outside it.
 */
export function siteModeratorReaches(accesses: ReadonlyMap<number, CircleAccess>, circleId: number | null): boolean {
  if (circleId === null) return true;
  const access = accesses.get(circleId);
  return access !== undefined && canReadCircleContent(access);
}

/** Who may decide a report on a subject in this circle (null: outside circles, site moderators only). */
export async function canModerate(db: Executor, viewer: Pick<Viewer, "id"> | null, circleId: number | null): Promise<boolean> {
  if (!viewer) return false;
  if (circleId === null) return isSiteModerator(db, viewer.id);
  const accesses = await loadCircleAccessMap(db, viewer);
  if (moderatesIn(accesses, circleId)) return true;
  return siteModeratorReaches(accesses, circleId) && (await isSiteModerator(db, viewer.id));
}

/** Whether the viewer may read a subject moderation hid: its author, its circle's moderators, site moderators. */
export async function canSeeHidden(
  db: Executor,
  viewer: Pick<Viewer, "id"> | null,
  subject: { authorId: number | null; circleId: number | null },
): Promise<boolean> {
  if (!viewer) return false;
  if (subject.authorId !== null && subject.authorId === viewer.id) return true;
  return canModerate(db, viewer, subject.circleId);
}

/** A hidden subject answers like an unknown one, except to its author and moderators. */
export async function assertNotHidden(
  db: Executor,
  viewer: Pick<Viewer, "id"> | null,
  subject: { hiddenAt: Date | null; authorId: number | null; circleId: number | null },
): Promise<void> {
  if (subject.hiddenAt && !(await canSeeHidden(db, viewer, subject))) throw new AppError("not_found");
}
