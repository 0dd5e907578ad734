import { eq } from "drizzle-orm";
import type { Executor } from "../../server/db/client.ts";
import { adCreatorSettings } from "../../server/db/schema/index.ts";
import { AppError } from "../../common/app-error.ts";
import { inTransaction, type ServiceOptions } from "../../server/lib/transactions.ts";
import { adsTag } from "../../server/lib/cache-tags.ts";
import type { Viewer } from "../accounts/viewer.ts";
import { can } from "../accounts/policy.ts";

/*
 * Creators' choice (`/monetization/ads`): monetization participants show ads on their pages and
 * earn their share unless they opt out; opting out takes the ads off their pages.
 */

function requireParticipant(viewer: Viewer): void {
  if (!can(viewer, "enter_monetization_home")) throw new AppError("forbidden");
}

export async function creatorAdsSetting(db: Executor, viewer: Viewer): Promise<{ enabled: boolean }> {
  requireParticipant(viewer);
  const [row] = await db
    .select({ enabled: adCreatorSettings.enabled })
    .from(adCreatorSettings)
    .where(eq(adCreatorSettings.userId, viewer.id));
  return { enabled: row?.enabled ?? true };
}

export async function setCreatorAds(options: ServiceOptions, viewer: Viewer, enabled: boolean, now: Date): Promise<{ enabled: boolean }> {
  requireParticipant(viewer);
  return inTransaction(options, async (tx) => {
    await tx.db
      .insert(adCreatorSettings)
      .values({ userId: viewer.id, enabled, updatedAt: now })
      .onConflictDoUpdate({ target: adCreatorSettings.userId, set: { enabled, updatedAt: now } });
    tx.invalidate(adsTag);
    return { enabled };
  });
}
