import { and, desc, eq, inArray, sql } from "drizzle-orm";
import type { Database, Executor } from "../../server/db/client.ts";
import { adBillings, adCampaigns, adDailyCounts, attachments, circles } from "../../server/db/schema/index.ts";
import { AppError } from "../../common/app-error.ts";
import { shanghaiDay } from "../../common/locale.ts";
import { onceByKey, requireIdempotencyKey } from "../../server/lib/idempotency.ts";
import { inTransaction, type ServiceOptions, type Transaction } from "../../server/lib/transactions.ts";
import { adsTag, userTag } from "../../server/lib/cache-tags.ts";
import type { Viewer } from "../accounts/viewer.ts";
import { ledgerBalance, postLedgerTransaction } from "../ledger/service.ts";
import { recordAudit, requireReason } from "../admin/audit.ts";
import type { Staff } from "../admin/staff.ts";
import type { CampaignInput, CreativeInput } from "./schema.ts";
import { adSettings } from "./settings.ts";

/* Campaigns: created by advertisers, reviewed by admins, paused and resumed, ended with their rest released. */

export type CampaignRow = typeof adCampaigns.$inferSelect;

/** Where a campaign's budget waits from its approval: its own account, whose balance is what is left to spend. */
export const campaignHold = (id: number) => ({ system: `ad_campaign:${id}`, currency: "sinecoin" as const });
/** The platform's part of the spend. */
export const platformAdsAccount = { system: "ads_platform", currency: "sinecoin" as const };
export const campaignsPath = "/ads/me";

function addDays(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

function invalidField(field: string, key: string): AppError {
  return new AppError("validation_failed", { fields: { [field]: key } });
}

/** A creative's image is one of the advertiser's own uploads. */
async function checkCreativeImage(db: Executor, viewer: Viewer, fileId: string): Promise<void> {
  const [image] = await db
    .select({ fileId: attachments.fileId })
    .from(attachments)
    .where(and(eq(attachments.fileId, fileId), eq(attachments.ownerId, viewer.id)));
  if (!image) throw invalidField("image_file_id", "validation:ads_image");
}

/** The checks that need the clock or the database: dates, the image (the advertiser's own upload), the circles. */
async function checkCampaignInput(db: Executor, viewer: Viewer, input: CampaignInput, now: Date): Promise<void> {
  const today = shanghaiDay(now);
  if (input.starts_on < today || input.starts_on > addDays(today, adSettings.maxDaysAhead))
    throw invalidField("starts_on", "validation:ads_start_date");
  if (input.ends_on > addDays(input.starts_on, adSettings.maxRunDays)) throw invalidField("ends_on", "validation:ads_run_days");
  await checkCreativeImage(db, viewer, input.image_file_id);
  if (input.circle_ids.length > 0) {
    const found = await db.select({ id: circles.id }).from(circles).where(inArray(circles.id, input.circle_ids));
    if (found.length !== new Set(input.circle_ids).size) throw invalidField("circle_ids", "validation:invalid_value");
  }
}

/**
 * A new campaign, `pending_review`: nothing is held and nothing shown until an admin approves it.
 * One campaign per idempotency key; the advertiser must be able to cover the budget now (it is
 * held at approval, when it is checked again).
 */
export async function createCampaign(
  options: ServiceOptions,
  viewer: Viewer,
  input: CampaignInput,
  idempotencyKey: string | undefined,
  now: Date,
): Promise<{ id: number; status: "pending_review" }> {
  const key = requireIdempotencyKey(idempotencyKey);
  await checkCampaignInput(options.db, viewer, input, now);
  return inTransaction(options, (tx) =>
    onceByKey(tx, { userId: viewer.id, key, operation: "ad_campaign", input }, async () => {
      const balance = await ledgerBalance(tx.db, { userId: viewer.id, currency: "sinecoin" });
      if (balance < input.budget) throw new AppError("insufficient_balance");
      const [row] = await tx.db
        .insert(adCampaigns)
        .values({
          advertiserId: viewer.id,
          title: input.title,
          text: input.text,
          imageFileId: input.image_file_id,
          url: input.url,
          circleIds: [...new Set(input.circle_ids)],
          languages: [...new Set(input.languages)],
          pricingModel: input.pricing.model,
          price: input.pricing.price,
          budget: input.budget,
          dailyCap: input.daily_cap,
          startsOn: input.starts_on,
          endsOn: input.ends_on,
          createdAt: now,
        })
        .returning({ id: adCampaigns.id });
      return { id: row!.id, status: "pending_review" as const };
    }),
  );
}

async function lockCampaign(tx: Transaction, id: number): Promise<CampaignRow> {
  const [row] = await tx.db.select().from(adCampaigns).where(eq(adCampaigns.id, id)).for("update");
  if (!row) throw new AppError("not_found");
  return row;
}

/** The advertiser's own campaign (anyone else: 404, a campaign is private to its advertiser). */
export async function getOwnCampaign(db: Executor, viewer: Viewer, id: number): Promise<CampaignRow> {
  const [row] = await db.select().from(adCampaigns).where(eq(adCampaigns.id, id));
  if (!row || row.advertiserId !== viewer.id) throw new AppError("not_found");
  return row;
}

export async function listOwnCampaigns(db: Executor, viewer: Viewer): Promise<CampaignRow[]> {
  return db.select().from(adCampaigns).where(eq(adCampaigns.advertiserId, viewer.id)).orderBy(desc(adCampaigns.id)).limit(200);
}

/**
 * Approval: the whole budget leaves the advertiser's sinecoin into the campaign's hold in the same
 * transaction (the balance check of the database refuses what it does not cover: 409
 * `insufficient_balance`), audited with the admin's reason. Only a pending campaign is approved,
 * or an approved one's changed creative (which then replaces the one shown; nothing more is held).
 * `revision` (the admin page sends the one it showed) refuses, 409 `ad_changed`, a creative changed
 * since the admin looked at it.
 */
export async function approveCampaign(
  options: ServiceOptions,
  staff: Staff,
  address: string,
  id: number,
  now: Date,
  revision?: number,
): Promise<CampaignRow> {
  return inTransaction(options, async (tx) => {
    const campaign = await lockCampaign(tx, id);
    if (revision !== undefined && revision !== campaign.revision) throw new AppError("ad_changed");
    if (campaign.status !== "pending_review") {
      if (!campaign.pendingCreative) throw new AppError("ad_not_pending");
      // A changed creative of an approved campaign: it replaces the one shown; the hold stays.
      const change = campaign.pendingCreative;
      const [row] = await tx.db
        .update(adCampaigns)
        .set({ ...change, pendingCreative: null, creativeRejectReason: null, reviewedAt: now })
        .where(eq(adCampaigns.id, id))
        .returning();
      await recordAudit(
        tx.db,
        { staff, address },
        { action: "ad.approve_change", target: `ad_campaign:${id}`, after: { ...change }, reason: "approved" },
      );
      tx.invalidate(adsTag, userTag(campaign.advertiserId));
      return row!;
    }
    await postLedgerTransaction(tx, {
      idempotencyKey: `campaign_hold:${id}`,
      kind: "campaign_hold",
      data: { campaignId: id, title: campaign.title, path: campaignsPath },
      entries: [
        { account: { userId: campaign.advertiserId, currency: "sinecoin" }, amount: -campaign.budget },
        { account: campaignHold(id), amount: campaign.budget },
      ],
    });
    const [row] = await tx.db
      .update(adCampaigns)
      .set({ status: "active", reviewedAt: now, rejectReason: null })
      .where(eq(adCampaigns.id, id))
      .returning();
    await recordAudit(
      tx.db,
      { staff, address },
      { action: "ad.approve", target: `ad_campaign:${id}`, after: { status: "active" }, reason: "approved" },
    );
    tx.invalidate(adsTag, userTag(campaign.advertiserId));
    return row!;
  });
}

/** Rejection with a reason the advertiser sees (of a new campaign: nothing was held, so nothing moves; of a changed creative: the approved one stays). */
export async function rejectCampaign(
  options: ServiceOptions,
  staff: Staff,
  address: string,
  id: number,
  reason: string | undefined,
  now: Date,
  revision?: number,
): Promise<CampaignRow> {
  const why = requireReason(reason);
  return inTransaction(options, async (tx) => {
    const campaign = await lockCampaign(tx, id);
    if (revision !== undefined && revision !== campaign.revision) throw new AppError("ad_changed");
    if (campaign.status !== "pending_review") {
      if (!campaign.pendingCreative) throw new AppError("ad_not_pending");
      // A refused change: the approved creative keeps showing; the advertiser sees why.
      const [row] = await tx.db
        .update(adCampaigns)
        .set({ pendingCreative: null, creativeRejectReason: why, reviewedAt: now })
        .where(eq(adCampaigns.id, id))
        .returning();
      await recordAudit(
        tx.db,
        { staff, address },
        { action: "ad.reject_change", target: `ad_campaign:${id}`, after: { ...campaign.pendingCreative }, reason: why },
      );
      tx.invalidate(userTag(campaign.advertiserId));
      return row!;
    }
    const [row] = await tx.db
      .update(adCampaigns)
      .set({ status: "rejected", reviewedAt: now, rejectReason: why })
      .where(eq(adCampaigns.id, id))
      .returning();
    await recordAudit(
      tx.db,
      { staff, address },
      { action: "ad.reject", target: `ad_campaign:${id}`, after: { status: "rejected" }, reason: why },
    );
    tx.invalidate(adsTag);
    return row!;
  });
}

/** The advertiser pauses an active campaign or resumes a paused one; any other change is 409 `ad_status_fixed`. */
export async function setCampaignStatus(
  options: ServiceOptions,
  viewer: Viewer,
  id: number,
  status: "paused" | "active",
): Promise<CampaignRow> {
  return inTransaction(options, async (tx) => {
    const campaign = await lockCampaign(tx, id);
    if (campaign.advertiserId !== viewer.id) throw new AppError("not_found");
    if (campaign.status === status) return campaign;
    const allowed = (campaign.status === "active" && status === "paused") || (campaign.status === "paused" && status === "active");
    if (!allowed) throw new AppError("ad_status_fixed");
    const [row] = await tx.db.update(adCampaigns).set({ status }).where(eq(adCampaigns.id, id)).returning();
    tx.invalidate(adsTag);
    return row!;
  });
}

/**
 * The advertiser changes the creative (title, text, image, destination). Nothing unreviewed is
 * ever shown: a campaign not approved yet is changed in place and stays (or, rejected, goes back)
 * `pending_review`; an approved one keeps showing the creative approved before while the change
 * waits for review (`pending_creative`). Every change raises the revision, so an admin's approval
 * of what they saw never approves a later change. Ended and exhausted campaigns are fixed (409 `ad_creative_fixed`).
 */
export async function changeCreative(
  options: ServiceOptions,
  viewer: Viewer,
  id: number,
  input: CreativeInput,
  now: Date,
): Promise<CampaignRow> {
  return inTransaction(options, async (tx) => {
    const campaign = await lockCampaign(tx, id);
    if (campaign.advertiserId !== viewer.id) throw new AppError("not_found");
    await checkCreativeImage(tx.db, viewer, input.image_file_id);
    const creative = { title: input.title, text: input.text, imageFileId: input.image_file_id, url: input.url };
    const changes =
      campaign.status === "pending_review" || campaign.status === "rejected"
        ? { ...creative, status: "pending_review" as const, rejectReason: null, pendingCreative: null }
        : campaign.status === "active" || campaign.status === "paused"
          ? { pendingCreative: creative, creativeRejectReason: null }
          : null;
    if (!changes) throw new AppError("ad_creative_fixed");
    const [row] = await tx.db
      .update(adCampaigns)
      .set({ ...changes, submittedAt: now, revision: campaign.revision + 1 })
      .where(eq(adCampaigns.id, id))
      .returning();
    tx.invalidate(adsTag, userTag(viewer.id));
    return row!;
  });
}

/**
 * What is left in a campaign's hold back to its advertiser, once (its key): the campaign is over
 * (past its end date) or spent. Called by the billing after the campaign's last billed day.
 */
export async function releaseCampaign(tx: Transaction, campaign: CampaignRow, reason: "ended" | "exhausted"): Promise<void> {
  const rest = campaign.budget - campaign.spent - campaign.released;
  await tx.db
    .update(adCampaigns)
    .set({ status: reason, released: campaign.released + rest })
    .where(eq(adCampaigns.id, campaign.id));
  if (rest > 0)
    await postLedgerTransaction(tx, {
      idempotencyKey: `campaign_release:${campaign.id}`,
      kind: "campaign_release",
      data: { campaignId: campaign.id, reason, title: campaign.title, path: campaignsPath },
      entries: [
        { account: campaignHold(campaign.id), amount: -rest },
        { account: { userId: campaign.advertiserId, currency: "sinecoin" }, amount: rest },
      ],
    });
  tx.invalidate(adsTag, userTag(campaign.advertiserId));
}

export interface CampaignDay {
  day: string;
  served: number;
  viewable: number;
  clicks: number;
  billable: number;
  filtered: number;
  filteredBy: { bot: number; limit: number; self: number; no_script: number };
  spend: number;
}

/**
 * A campaign's days in a range: the counts (all creators' pages together) and, for billed days,
 * what was billed. Before its billing a day's `billable` is what would be billed (by the pricing
 * model) and its spend 0.
 */
export async function campaignDays(db: Database, campaign: CampaignRow, from: string, to: string): Promise<CampaignDay[]> {
  const counts = await db
    .select({
      day: adDailyCounts.day,
      served: sql<number>`sum(${adDailyCounts.served})::int`,
      viewable: sql<number>`sum(${adDailyCounts.viewable})::int`,
      clicks: sql<number>`sum(${adDailyCounts.clicks})::int`,
      filteredViewable: sql<number>`sum(${adDailyCounts.filteredViewable})::int`,
      filteredClicks: sql<number>`sum(${adDailyCounts.filteredClicks})::int`,
      bot: sql<number>`sum(${adDailyCounts.filteredBot})::int`,
      limit: sql<number>`sum(${adDailyCounts.filteredLimit})::int`,
      self: sql<number>`sum(${adDailyCounts.filteredSelf})::int`,
      noScript: sql<number>`sum(${adDailyCounts.filteredNoScript})::int`,
    })
    .from(adDailyCounts)
    .where(and(eq(adDailyCounts.campaignId, campaign.id), sql`${adDailyCounts.day} between ${from} and ${to}`))
    .groupBy(adDailyCounts.day);
  const bills = await db
    .select()
    .from(adBillings)
    .where(and(eq(adBillings.campaignId, campaign.id), sql`${adBillings.day} between ${from} and ${to}`));
  const billed = new Map(bills.map((bill) => [bill.day, bill]));
  const byDay = new Map(counts.map((row) => [row.day, row]));
  const days: CampaignDay[] = [];
  for (let day = from; day <= to; day = addDays(day, 1)) {
    const row = byDay.get(day);
    const bill = billed.get(day);
    const units =
      campaign.pricingModel === "cpm"
        ? (row?.viewable ?? 0) - (row?.filteredViewable ?? 0)
        : (row?.clicks ?? 0) - (row?.filteredClicks ?? 0);
    days.push({
      day,
      served: row?.served ?? 0,
      viewable: row?.viewable ?? 0,
      clicks: row?.clicks ?? 0,
      billable: bill ? bill.billableUnits : units,
      filtered: (row?.filteredViewable ?? 0) + (row?.filteredClicks ?? 0),
      filteredBy: { bot: row?.bot ?? 0, limit: row?.limit ?? 0, self: row?.self ?? 0, no_script: row?.noScript ?? 0 },
      spend: bill?.spend ?? 0,
    });
    if (days.length > 400) break;
  }
  return days;
}

export { addDays };
