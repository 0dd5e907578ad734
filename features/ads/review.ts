import { asc, eq, isNotNull, or } from "drizzle-orm";
import type { Executor } from "../../server/db/client.ts";
import { adCampaigns } from "../../server/db/schema/index.ts";
import type { CampaignRow } from "./campaigns.ts";

/** Campaigns waiting for review, new ones and approved ones with a changed creative, oldest first (the admin area's `/admin/ads`). */
export async function pendingCampaigns(db: Executor): Promise<CampaignRow[]> {
  return db
    .select()
    .from(adCampaigns)
    .where(or(eq(adCampaigns.status, "pending_review"), isNotNull(adCampaigns.pendingCreative)))
    .orderBy(asc(adCampaigns.id))
    .limit(100);
}
