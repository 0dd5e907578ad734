import { asc, eq } from "drizzle-orm";
import type { Executor } from "../../server/db/client.ts";
import { adCampaigns } from "../../server/db/schema/index.ts";
import type { CampaignRow } from "./campaigns.ts";

/** Campaigns waiting for review, oldest first (the admin area's `/admin/ads`). */
export async function pendingCampaigns(db: Executor): Promise<CampaignRow[]> {
  return db.select().from(adCampaigns).where(eq(adCampaigns.status, "pending_review")).orderBy(asc(adCampaigns.id)).limit(100);
}
