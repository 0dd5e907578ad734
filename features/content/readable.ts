import type { Executor } from "../../server/db/client.ts";
import { AppError } from "../../common/app-error.ts";
import type { Viewer } from "../accounts/viewer.ts";
import { loadCircleAccess } from "../circles/access.server.ts";
import { canViewCircle, type CircleAccess } from "../circles/policy.ts";
import { assertNotHidden } from "../reports/visibility.ts";

/**
 * The viewer's access to the circle of a piece of content (a writing, a question, an entry) when
 * the viewer may read it (`canRead`, the content's own policy); otherwise `not_found`, as if it
 * did not exist. A visitor who may see the circle but not read its content is asked to sign in
 * (401), like the circle's own content routes; content hidden by moderation reads only for its
 * author and moderators.
 */
export async function readableContentAccess(
  db: Executor,
  viewer: Viewer | null,
  row: { circleId: number; authorId: number; hiddenAt: Date | null },
  canRead: (access: CircleAccess) => boolean,
): Promise<CircleAccess> {
  const access = await loadCircleAccess(db, viewer, row.circleId);
  if (!access || !canViewCircle(access) || !canRead(access)) {
    if (access && canViewCircle(access) && !viewer) throw new AppError("not_authenticated");
    throw new AppError("not_found");
  }
  await assertNotHidden(db, viewer, { hiddenAt: row.hiddenAt, authorId: row.authorId, circleId: row.circleId });
  return access;
}
