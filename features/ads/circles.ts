import { eq } from "drizzle-orm";
import type { Executor } from "../../server/db/client.ts";
import { adFreeCircles } from "../../server/db/schema/index.ts";
import { inTransaction, type ServiceOptions } from "../../server/lib/transactions.ts";
import { adsTag } from "../../server/lib/cache-tags.ts";
import type { Viewer } from "../accounts/viewer.ts";
import { requireCircle } from "../circles/access.server.ts";

/*
 * Ad-free circles: a circle's administrators (those who may edit its settings) mark its pages
 * ad-free; no slot on a page of that circle then shows an ad, in every process (the `ads` tag
 * reloads every serving index).
 */

export async function circleAdFree(db: Executor, viewer: Viewer, circleId: number): Promise<{ adFree: boolean }> {
  await requireCircle(db, viewer, circleId, "edit_settings", { signedIn: true });
  const [row] = await db.select({ circleId: adFreeCircles.circleId }).from(adFreeCircles).where(eq(adFreeCircles.circleId, circleId));
  return { adFree: Boolean(row) };
}

export async function setCircleAdFree(
  options: ServiceOptions,
  viewer: Viewer,
  circleId: number,
  adFree: boolean,
  now: Date,
): Promise<{ adFree: boolean }> {
  await requireCircle(options.db, viewer, circleId, "edit_settings", { signedIn: true });
  return inTransaction(options, async (tx) => {
    if (adFree)
      await tx.db
        .insert(adFreeCircles)
        .values({ circleId, setBy: viewer.id, setAt: now })
        .onConflictDoNothing({ target: adFreeCircles.circleId });
    else await tx.db.delete(adFreeCircles).where(eq(adFreeCircles.circleId, circleId));
    tx.invalidate(adsTag);
    return { adFree };
  });
}
