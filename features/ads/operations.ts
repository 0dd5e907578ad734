import { z } from "zod";
import { idSchema } from "../../common/id.ts";
import { shanghaiDay } from "../../common/locale.ts";
import { AppError } from "../../common/app-error.ts";
import { defineOperation } from "../../server/lib/operation.ts";
import { attachmentUrl } from "../attachments/constants.ts";
import { reasonField } from "../admin/audit.ts";
import { requireStaff } from "../admin/staff.ts";
import {
  addDays,
  approveCampaign,
  campaignDays,
  changeCreative,
  createCampaign,
  getOwnCampaign,
  listOwnCampaigns,
  rejectCampaign,
  setCampaignStatus,
  type CampaignDay,
  type CampaignRow,
} from "./campaigns.ts";
import { creatorAdsSetting, setCreatorAds } from "./creators.ts";
import { circleAdFree, setCircleAdFree } from "./circles.ts";
import { campaignInputSchema, creativeInputSchema } from "./schema.ts";
import { adSettings, campaignStatuses } from "./settings.ts";
import { pendingCampaigns } from "./review.ts";

/* Self-serve ads: `/api/ads/campaigns/…` (advertisers), `/api/admin/ads/…` (review), `/api/monetization/ads/` (creators). */

const campaignAnswer = z.object({
  id: z.number().int(),
  title: z.string(),
  text: z.string(),
  image_file_id: z.string(),
  image_url: z.string(),
  url: z.string(),
  circle_ids: z.array(z.number().int()),
  languages: z.array(z.string()),
  pricing: z.object({ model: z.enum(["cpm", "cpc"]), price: z.number().int() }),
  budget: z.number().int(),
  daily_cap: z.number().int(),
  starts_on: z.string(),
  ends_on: z.string(),
  status: z.enum(campaignStatuses),
  reject_reason: z.string().nullable(),
  /** A changed creative waiting for review (the approved one is shown meanwhile), or null. */
  pending_creative: z
    .object({ title: z.string(), text: z.string(), image_file_id: z.string(), image_url: z.string(), url: z.string() })
    .nullable(),
  creative_reject_reason: z.string().nullable(),
  revision: z.number().int(),
  spent: z.number().int(),
  released: z.number().int(),
  created_at: z.string(),
});

export function presentCampaign(row: CampaignRow): z.infer<typeof campaignAnswer> {
  return {
    id: row.id,
    title: row.title,
    text: row.text,
    image_file_id: row.imageFileId,
    image_url: attachmentUrl(row.imageFileId),
    url: row.url,
    circle_ids: row.circleIds,
    languages: row.languages,
    pricing: { model: row.pricingModel, price: row.price },
    budget: row.budget,
    daily_cap: row.dailyCap,
    starts_on: row.startsOn,
    ends_on: row.endsOn,
    status: row.status,
    reject_reason: row.rejectReason,
    pending_creative: row.pendingCreative
      ? {
          title: row.pendingCreative.title,
          text: row.pendingCreative.text,
          image_file_id: row.pendingCreative.imageFileId,
          image_url: attachmentUrl(row.pendingCreative.imageFileId),
          url: row.pendingCreative.url,
        }
      : null,
    creative_reject_reason: row.creativeRejectReason,
    revision: row.revision,
    spent: row.spent,
    released: row.released,
    created_at: row.createdAt.toISOString(),
  };
}

const params = z.object({ id: idSchema });

export const createCampaignOperation = defineOperation({
  name: "createAdCampaign",
  input: { body: campaignInputSchema },
  viewer: "signed-in",
  run: (services, viewer, { body }) => createCampaign({ db: services.db }, viewer, body, services.idempotencyKey, services.now()),
  present: (result: { id: number; status: "pending_review" }) => result,
  response: z.strictObject({ id: z.number().int(), status: z.literal("pending_review") }),
  failures: ["insufficient_balance", "idempotency_key_required", "idempotency_mismatch"],
  unexpected: "ads_failed",
});

export const listCampaignsOperation = defineOperation({
  name: "listAdCampaigns",
  input: {},
  viewer: "signed-in",
  run: (services, viewer) => listOwnCampaigns(services.db, viewer),
  present: (rows: CampaignRow[]) => ({ results: rows.map(presentCampaign) }),
  response: z.object({ results: z.array(campaignAnswer) }),
  failures: [],
});

export const getCampaignOperation = defineOperation({
  name: "getAdCampaign",
  input: { params },
  viewer: "signed-in",
  run: (services, viewer, { params }) => getOwnCampaign(services.db, viewer, params.id),
  present: presentCampaign,
  response: campaignAnswer,
  failures: ["not_found"],
});

const creativeKeys = ["title", "text", "image_file_id", "url"] as const;
/** `{ status }` pauses or resumes; `{ title, text, image_file_id, url }` (all four) changes the creative, which goes back to review. */
const updateCampaignBody = creativeInputSchema
  .partial()
  .extend({ status: z.enum(["paused", "active"], "validation:invalid_value").optional() })
  .superRefine((body, context) => {
    const given = creativeKeys.filter((key) => body[key] !== undefined);
    if (given.length === 0 && body.status === undefined)
      context.addIssue({ code: "custom", path: ["status"], message: "validation:invalid_value" });
    if (given.length > 0)
      for (const key of creativeKeys)
        if (body[key] === undefined)
          context.addIssue({ code: "custom", path: [key], message: `validation:ads_${key === "image_file_id" ? "image" : key}` });
  });

export const updateCampaignOperation = defineOperation({
  name: "updateAdCampaign",
  input: { params, body: updateCampaignBody },
  viewer: "signed-in",
  run: async (services, viewer, { params, body }) => {
    let row: CampaignRow | null = null;
    if (body.title !== undefined && body.text !== undefined && body.image_file_id !== undefined && body.url !== undefined)
      row = await changeCreative(
        { db: services.db },
        viewer,
        params.id,
        { title: body.title, text: body.text, image_file_id: body.image_file_id, url: body.url },
        services.now(),
      );
    if (body.status !== undefined) row = await setCampaignStatus({ db: services.db }, viewer, params.id, body.status);
    return row!;
  },
  present: presentCampaign,
  response: campaignAnswer,
  failures: ["not_found", "ad_status_fixed", "ad_creative_fixed", "validation_failed"],
  unexpected: "ads_failed",
});

const dayField = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "validation:ads_date");
const statsQuery = z.object({ from: dayField.optional(), to: dayField.optional() });

const statsDay = z.object({
  day: z.string(),
  served: z.number().int(),
  viewable: z.number().int(),
  clicks: z.number().int(),
  billable: z.number().int(),
  filtered: z.number().int(),
  filtered_by: z.object({ bot: z.number().int(), limit: z.number().int(), self: z.number().int(), no_script: z.number().int() }),
  spend: z.number().int(),
});

export function presentCampaignDay(day: CampaignDay): z.infer<typeof statsDay> {
  return {
    day: day.day,
    served: day.served,
    viewable: day.viewable,
    clicks: day.clicks,
    billable: day.billable,
    filtered: day.filtered,
    filtered_by: day.filteredBy,
    spend: day.spend,
  };
}

/** A campaign's days (at most 92): by default from its start to today or its end, whichever is first. */
export async function campaignStats(
  services: { db: Parameters<typeof campaignDays>[0]; now(): Date },
  campaign: CampaignRow,
  query: { from?: string | undefined; to?: string | undefined },
): Promise<CampaignDay[]> {
  const today = shanghaiDay(services.now());
  const to = query.to ?? (campaign.endsOn < today ? campaign.endsOn : today);
  const from = query.from ?? (campaign.startsOn > addDays(to, -91) ? campaign.startsOn : addDays(to, -91));
  if (from > to || addDays(from, 92) <= to) throw new AppError("invalid_range");
  return campaignDays(services.db, campaign, from, to);
}

export const campaignStatsOperation = defineOperation({
  name: "adCampaignStats",
  input: { params, query: statsQuery },
  viewer: "signed-in",
  run: async (services, viewer, { params, query }) => campaignStats(services, await getOwnCampaign(services.db, viewer, params.id), query),
  present: (days: CampaignDay[]) => ({ days: days.map(presentCampaignDay) }),
  response: z.object({ days: z.array(statsDay) }),
  failures: ["not_found", "invalid_range"],
});

/** The creative's revision the admin reviewed (optional: without it, the current one). */
const revisionField = z
  .number({ error: "validation:invalid_value" })
  .int("validation:invalid_value")
  .min(0, "validation:invalid_value")
  .optional();

const reviewAnswer = campaignAnswer.extend({ advertiser_id: z.number().int() });

export const pendingCampaignsOperation = defineOperation({
  name: "adminPendingAdCampaigns",
  input: {},
  viewer: "signed-in",
  run: async (services, viewer) => {
    await requireStaff(services.db, viewer, "manage_ledger");
    return pendingCampaigns(services.db);
  },
  present: (rows: CampaignRow[]) => ({ results: rows.map((row) => ({ ...presentCampaign(row), advertiser_id: row.advertiserId })) }),
  response: z.object({ results: z.array(reviewAnswer) }),
  failures: ["forbidden"],
});

export const approveCampaignOperation = defineOperation({
  name: "adminApproveAdCampaign",
  input: { params, body: z.strictObject({ revision: revisionField }).nullish() },
  viewer: "signed-in",
  run: async (services, viewer, { params, body }) =>
    approveCampaign(
      { db: services.db },
      await requireStaff(services.db, viewer, "manage_ledger"),
      services.client.address,
      params.id,
      services.now(),
      body?.revision,
    ),
  present: presentCampaign,
  response: campaignAnswer,
  failures: ["forbidden", "not_found", "ad_not_pending", "ad_changed", "insufficient_balance"],
  unexpected: "ads_failed",
});

export const rejectCampaignOperation = defineOperation({
  name: "adminRejectAdCampaign",
  input: { params, body: z.strictObject({ reason: reasonField, revision: revisionField }) },
  viewer: "signed-in",
  run: async (services, viewer, { params, body }) =>
    rejectCampaign(
      { db: services.db },
      await requireStaff(services.db, viewer, "manage_ledger"),
      services.client.address,
      params.id,
      body.reason,
      services.now(),
      body.revision,
    ),
  present: presentCampaign,
  response: campaignAnswer,
  failures: ["forbidden", "not_found", "ad_not_pending", "ad_changed", "reason_required"],
  unexpected: "ads_failed",
});

const creatorSetting = z.object({ enabled: z.boolean(), share_percent: z.number().int() });

export const creatorAdsOperation = defineOperation({
  name: "getMonetizationAds",
  input: {},
  viewer: "signed-in",
  run: (services, viewer) => creatorAdsSetting(services.db, viewer),
  present: (setting: { enabled: boolean }) => ({ enabled: setting.enabled, share_percent: adSettings.creatorsSharePercent }),
  response: creatorSetting,
  failures: ["forbidden"],
});

export const setCreatorAdsOperation = defineOperation({
  name: "setMonetizationAds",
  input: { body: z.strictObject({ enabled: z.boolean({ error: "validation:invalid_value" }) }) },
  viewer: "signed-in",
  run: (services, viewer, { body }) => setCreatorAds({ db: services.db }, viewer, body.enabled, services.now()),
  present: (setting: { enabled: boolean }) => ({ enabled: setting.enabled, share_percent: adSettings.creatorsSharePercent }),
  response: creatorSetting,
  failures: ["forbidden"],
});

const circleParams = z.object({ id: idSchema });
const circleAds = z.object({ ad_free: z.boolean() });

export const circleAdsOperation = defineOperation({
  name: "getCircleAds",
  input: { params: circleParams },
  viewer: "signed-in",
  run: (services, viewer, { params }) => circleAdFree(services.db, viewer, params.id),
  present: (setting: { adFree: boolean }) => ({ ad_free: setting.adFree }),
  response: circleAds,
  failures: ["forbidden", "not_found"],
});

export const setCircleAdsOperation = defineOperation({
  name: "setCircleAds",
  input: { params: circleParams, body: z.strictObject({ ad_free: z.boolean({ error: "validation:invalid_value" }) }) },
  viewer: "signed-in",
  run: (services, viewer, { params, body }) => setCircleAdFree({ db: services.db }, viewer, params.id, body.ad_free, services.now()),
  present: (setting: { adFree: boolean }) => ({ ad_free: setting.adFree }),
  response: circleAds,
  failures: ["forbidden", "not_found"],
  unexpected: "ads_failed",
});
