import { and, eq, inArray, lt, sql } from "drizzle-orm";
import type { Database } from "../../server/db/client.ts";
import { adBillings, adCampaigns, adCreatorSettings, adDailyCounts, users } from "../../server/db/schema/index.ts";
import { shanghaiDay } from "../../common/locale.ts";
import { inTransaction, type Transaction } from "../../server/lib/transactions.ts";
import { userTag } from "../../server/lib/cache-tags.ts";
import { postLedgerTransaction, type LedgerEntryInput } from "../ledger/service.ts";
import { campaignHold, campaignsPath, releaseCampaign, type CampaignRow } from "./campaigns.ts";
import { adSettings } from "./settings.ts";

/*
 * The daily billing (the `bill-ads` job): for each campaign and each finished Asia/Shanghai day
 * with counts and no bill yet, one ledger transaction keyed `ad_payout:<campaign>:<day>` takes the
 * day's billable spend from the campaign's hold — never more than its daily cap nor what the hold
 * still has — and pays each participating creator their share of the spend on their pages and the
 * platform the rest. The bill row is written in the same transaction: a second run finds it.
 */

export interface DayBill {
  billableUnits: number;
  spend: number;
  /** Per creator id: their share. */
  shares: Map<number, number>;
  platform: number;
}

/**
 * The arithmetic of one day's bill (pure): units × price (CPM per thousand, rounded down), capped
 * by the daily cap and the hold; each creator's part of the spend in proportion to their units
 * (rounded down), their share a percentage of it (rounded down); the platform gets exactly the
 * rest, so the parts add up to the spend.
 */
export function computeDayBill(
  campaign: { pricingModel: "cpm" | "cpc"; price: number; dailyCap: number },
  left: number,
  rows: { creatorId: number; units: number; sharing: boolean }[],
): DayBill {
  const units = rows.reduce((sum, row) => sum + Math.max(0, row.units), 0);
  const cost = campaign.pricingModel === "cpm" ? Math.floor((units * campaign.price) / 1000) : units * campaign.price;
  const spend = Math.max(0, Math.min(cost, campaign.dailyCap, left));
  const billableUnits =
    spend === cost
      ? units
      : campaign.pricingModel === "cpm"
        ? Math.floor((spend * 1000) / campaign.price)
        : Math.floor(spend / campaign.price);
  const shares = new Map<number, number>();
  if (units > 0)
    for (const row of rows) {
      if (!row.sharing || row.creatorId === 0 || row.units <= 0) continue;
      const part = Math.floor((spend * row.units) / units);
      const share = Math.floor((part * adSettings.creatorsSharePercent) / 100);
      if (share > 0) shares.set(row.creatorId, (shares.get(row.creatorId) ?? 0) + share);
    }
  const creators = [...shares.values()].reduce((sum, share) => sum + share, 0);
  return { billableUnits, spend, shares, platform: spend - creators };
}

/** Whose pages earn a share: monetization participants (any type but "Registered users") who have not opted out. */
async function sharingCreators(tx: Transaction, creatorIds: number[]): Promise<Set<number>> {
  const ids = creatorIds.filter((id) => id > 0);
  if (ids.length === 0) return new Set();
  const rows = await tx.db
    .select({ id: users.id, enabled: adCreatorSettings.enabled })
    .from(users)
    .leftJoin(adCreatorSettings, eq(adCreatorSettings.userId, users.id))
    .where(and(inArray(users.id, ids), sql`${users.userType} <> 'Registered users'`));
  return new Set(rows.filter((row) => row.enabled !== false).map((row) => row.id));
}

async function billCampaignDay(tx: Transaction, campaign: CampaignRow, day: string): Promise<void> {
  const [done] = await tx.db
    .select({ day: adBillings.day })
    .from(adBillings)
    .where(and(eq(adBillings.campaignId, campaign.id), eq(adBillings.day, day)));
  if (done) return;
  const counts = await tx.db
    .select()
    .from(adDailyCounts)
    .where(and(eq(adDailyCounts.campaignId, campaign.id), eq(adDailyCounts.day, day)));
  const sharing = await sharingCreators(
    tx,
    counts.map((row) => row.creatorId),
  );
  const bill = computeDayBill(
    campaign,
    campaign.budget - campaign.spent - campaign.released,
    counts.map((row) => ({
      creatorId: row.creatorId,
      units: campaign.pricingModel === "cpm" ? row.viewable - row.filteredViewable : row.clicks - row.filteredClicks,
      sharing: sharing.has(row.creatorId),
    })),
  );
  const creatorsShare = bill.spend - bill.platform;
  await tx.db.insert(adBillings).values({
    campaignId: campaign.id,
    day,
    billableUnits: bill.billableUnits,
    spend: bill.spend,
    creatorsShare,
    platformShare: bill.platform,
  });
  if (bill.spend === 0) return;
  const entries: LedgerEntryInput[] = [{ account: campaignHold(campaign.id), amount: -bill.spend }];
  for (const [userId, share] of [...bill.shares].sort(([a], [b]) => a - b))
    entries.push({ account: { userId, currency: "sinecoin" }, amount: share });
  if (bill.platform > 0) entries.push({ account: { system: "ads_platform", currency: "sinecoin" }, amount: bill.platform });
  await postLedgerTransaction(tx, {
    idempotencyKey: `ad_payout:${campaign.id}:${day}`,
    kind: "ad_payout",
    data: { campaignId: campaign.id, day, spend: bill.spend, title: campaign.title, path: campaignsPath },
    entries,
  });
  await tx.db
    .update(adCampaigns)
    .set({ spent: sql`${adCampaigns.spent} + ${bill.spend}` })
    .where(eq(adCampaigns.id, campaign.id));
  for (const userId of bill.shares.keys()) tx.invalidate(userTag(userId));
}

/**
 * Bills every finished day not billed yet (each campaign in its own transaction, under its row
 * lock), then ends campaigns past their end date or spent, releasing what is left. Safe to run
 * again: a billed day, an ended campaign move nothing twice. Returns the campaigns touched.
 */
export async function billAds(db: Database, now: Date): Promise<number> {
  const today = shanghaiDay(now);
  const due = await db
    .selectDistinct({ id: adDailyCounts.campaignId })
    .from(adDailyCounts)
    .where(
      and(
        lt(adDailyCounts.day, today),
        sql`not exists (select 1 from ad_billings b where b.campaign_id = ${adDailyCounts.campaignId} and b.day = ${adDailyCounts.day})`,
      ),
    );
  const ending = await db
    .select({ id: adCampaigns.id })
    .from(adCampaigns)
    .where(
      and(
        inArray(adCampaigns.status, ["active", "paused"]),
        sql`(${adCampaigns.endsOn} < ${today}::date or ${adCampaigns.spent} >= ${adCampaigns.budget})`,
      ),
    );
  const ids = [...new Set([...due.map((row) => row.id), ...ending.map((row) => row.id)])].sort((a, b) => a - b);
  for (const id of ids) {
    await inTransaction({ db }, async (tx) => {
      const [locked] = await tx.db.select().from(adCampaigns).where(eq(adCampaigns.id, id)).for("update");
      if (!locked) return;
      const days = await tx.db
        .selectDistinct({ day: adDailyCounts.day })
        .from(adDailyCounts)
        .where(
          and(
            eq(adDailyCounts.campaignId, id),
            lt(adDailyCounts.day, today),
            sql`not exists (select 1 from ad_billings b where b.campaign_id = ${id} and b.day = ${adDailyCounts.day})`,
          ),
        )
        .orderBy(adDailyCounts.day);
      for (const { day } of days) {
        const [campaign] = await tx.db.select().from(adCampaigns).where(eq(adCampaigns.id, id));
        await billCampaignDay(tx, campaign!, day);
      }
      const [campaign] = await tx.db.select().from(adCampaigns).where(eq(adCampaigns.id, id));
      if (!campaign || (campaign.status !== "active" && campaign.status !== "paused")) return;
      if (campaign.spent >= campaign.budget) await releaseCampaign(tx, campaign, "exhausted");
      else if (campaign.endsOn < today) await releaseCampaign(tx, campaign, "ended");
    });
  }
  return ids.length;
}
