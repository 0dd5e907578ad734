import { and, eq, gte, lte, sql } from "drizzle-orm";
import type { Database } from "../../server/db/client.ts";
import { adCampaigns, adCreatorSettings, adFreeCircles } from "../../server/db/schema/index.ts";
import { shanghaiDay } from "../../common/locale.ts";
import { adsTag } from "../../server/lib/cache-tags.ts";
import { onInvalidate, onResync } from "../../server/lib/invalidation.ts";
import { attachmentUrl } from "../attachments/constants.ts";
import { adSettings, type FilterReason } from "./settings.ts";
import { newServeId, type ServedAd } from "./token.ts";

/*
 * The serving index: the active campaigns of today with what they may still spend, held in memory
 * per database handle and reloaded when the `ads` cache tag is invalidated (approval, pause, end:
 * in every process) and every few seconds (the counts other processes flushed). Selection is a
 * walk over that array: no query per slot.
 */

export interface IndexedCampaign {
  id: number;
  advertiserId: number;
  title: string;
  text: string;
  imageUrl: string;
  url: string;
  circleIds: ReadonlySet<number>;
  languages: ReadonlySet<string>;
  model: "cpm" | "cpc";
  price: number;
  dailyCap: number;
  /** Budget not yet billed, minus what the unbilled days' counts will cost (sinecoin × 1000). */
  remainingMilli: number;
  /** Today's estimated spend so far (sinecoin × 1000), from the flushed counts. */
  todayMilli: number;
  /** What this process served since the load and expects to cost (CPM: each serve as if viewable). */
  localMilli: number;
}

interface Index {
  day: string;
  campaigns: IndexedCampaign[];
  optedOut: ReadonlySet<number>;
  /** Circles marked ad-free: no ad on their pages. */
  adFree: ReadonlySet<number>;
  loadedAt: number;
  stale: boolean;
  loading: Promise<void> | null;
  /** Per visitor and day: served counts by campaign and in all, and clicks. */
  visitors: Map<string, { byCampaign: Map<number, number>; served: number; clicks: number }>;
}

const indexes = new WeakMap<Database, Index>();
const live = new Set<Index>();
const refreshMs = 5_000;
const maxVisitors = 200_000;

onInvalidate((tags) => {
  if (tags.includes(adsTag)) for (const index of live) index.stale = true;
});
onResync(() => {
  for (const index of live) index.stale = true;
});

/** Unit cost in sinecoin × 1000: a viewable impression (CPM) or a click (CPC). */
export function unitMilli(model: "cpm" | "cpc", price: number): number {
  return model === "cpm" ? price : price * 1000;
}

async function loadIndex(db: Database, index: Index, now: Date): Promise<void> {
  const today = shanghaiDay(now);
  // Cleared first: an invalidation arriving during the load marks it stale again.
  index.stale = false;
  const rows = await db
    .select({
      campaign: adCampaigns,
      unbilledUnits: sql<number>`coalesce((select sum(case when ${adCampaigns.pricingModel} = 'cpm' then c.viewable - c.filtered_viewable else c.clicks - c.filtered_clicks end)
        from ad_daily_counts c where c.campaign_id = ${adCampaigns.id}
        and not exists (select 1 from ad_billings b where b.campaign_id = c.campaign_id and b.day = c.day)), 0)::int`,
      todayUnits: sql<number>`coalesce((select sum(case when ${adCampaigns.pricingModel} = 'cpm' then c.viewable - c.filtered_viewable else c.clicks - c.filtered_clicks end)
        from ad_daily_counts c where c.campaign_id = ${adCampaigns.id} and c.day = ${today}::date), 0)::int`,
    })
    .from(adCampaigns)
    .where(and(eq(adCampaigns.status, "active"), lte(adCampaigns.startsOn, today), gte(adCampaigns.endsOn, today)));
  const optedOut = await db
    .select({ userId: adCreatorSettings.userId })
    .from(adCreatorSettings)
    .where(eq(adCreatorSettings.enabled, false));
  index.campaigns = rows.map(({ campaign, unbilledUnits, todayUnits }) => {
    const unit = unitMilli(campaign.pricingModel, campaign.price);
    return {
      id: campaign.id,
      advertiserId: campaign.advertiserId,
      title: campaign.title,
      text: campaign.text,
      imageUrl: attachmentUrl(campaign.imageFileId),
      url: campaign.url,
      circleIds: new Set(campaign.circleIds),
      languages: new Set(campaign.languages),
      model: campaign.pricingModel,
      price: campaign.price,
      dailyCap: campaign.dailyCap,
      remainingMilli: (campaign.budget - campaign.spent - campaign.released) * 1000 - unbilledUnits * unit,
      todayMilli: todayUnits * unit,
      localMilli: 0,
    };
  });
  const adFree = await db.select({ circleId: adFreeCircles.circleId }).from(adFreeCircles);
  index.optedOut = new Set(optedOut.map((row) => row.userId));
  index.adFree = new Set(adFree.map((row) => row.circleId));
  if (index.day !== today) index.visitors.clear();
  index.day = today;
  index.loadedAt = now.getTime();
}

/** The index, loaded on first use and reloaded when stale (while a reload runs, the last one answers). */
async function currentIndex(db: Database, now: Date): Promise<Index> {
  let index = indexes.get(db);
  if (!index) {
    index = {
      day: "",
      campaigns: [],
      optedOut: new Set(),
      adFree: new Set(),
      loadedAt: 0,
      stale: true,
      loading: null,
      visitors: new Map(),
    };
    indexes.set(db, index);
    live.add(index);
  }
  // A change of the campaigns (approval, pause, an opt-out) or a new day is waited for; the periodic
  // refresh of the counts is not (the last load answers meanwhile).
  const mustWait = index.stale || index.day !== shanghaiDay(now);
  if (mustWait && index.loading) await index.loading;
  if ((index.stale || index.day !== shanghaiDay(now) || now.getTime() - index.loadedAt > refreshMs) && !index.loading) {
    const target = index;
    target.loading = loadIndex(db, target, now).finally(() => {
      target.loading = null;
    });
  }
  if (mustWait && index.loading) await index.loading;
  return index;
}

/** Forgets this database's index (its handle is closing). */
export function dropAdIndex(db: Database): void {
  const index = indexes.get(db);
  if (index) live.delete(index);
  indexes.delete(db);
}

/** How much of the daily cap may be spent by now: evenly over the Asia/Shanghai day, with an hour's allowance ahead. */
export function pacedAllowanceMilli(dailyCap: number, now: Date): number {
  const shanghai = new Date(now.getTime() + 8 * 3_600_000);
  const elapsed = (shanghai.getUTCHours() * 3600 + shanghai.getUTCMinutes() * 60 + shanghai.getUTCSeconds()) / 86_400;
  return Math.floor(dailyCap * 1000 * Math.min(1, elapsed + 1 / 24));
}

export interface SlotRequest {
  circleId: number | null;
  language: string;
  /** Who the counts are for: the user (`u:<id>`) or the visitor cookie's hash. */
  visitor: string;
  viewerId: number | null;
  /** Whose page shows it (0: none). */
  creatorId: number;
  bot: boolean;
}

export interface ChosenAd {
  served: ServedAd;
  campaign: IndexedCampaign;
}

/**
 * Picks an ad for a slot, or null: by targeting (circle, language), what the campaign may still
 * spend (its hold, never more), pacing (its daily cap spread over the day) and the visitor's
 * frequency cap. Nothing on the pages of a creator who opted out nor on an ad-free circle's.
 */
export async function chooseAd(db: Database, request: SlotRequest, now: Date): Promise<ChosenAd | null> {
  const index = await currentIndex(db, now);
  if (request.creatorId && index.optedOut.has(request.creatorId)) return null;
  if (request.circleId !== null && index.adFree.has(request.circleId)) return null;
  let seen = index.visitors.get(request.visitor);
  const allowance = (campaign: IndexedCampaign) => pacedAllowanceMilli(campaign.dailyCap, now);
  const eligible = index.campaigns.filter((campaign) => {
    const unit = unitMilli(campaign.model, campaign.price);
    if (!campaign.languages.has(request.language)) return false;
    if (campaign.circleIds.size > 0 && (request.circleId === null || !campaign.circleIds.has(request.circleId))) return false;
    if (campaign.remainingMilli - campaign.localMilli < unit) return false;
    if (campaign.todayMilli + campaign.localMilli + unit > allowance(campaign)) return false;
    return (seen?.byCampaign.get(campaign.id) ?? 0) < adSettings.frequencyCapPerDay;
  });
  if (eligible.length === 0) return null;
  const campaign = eligible[Math.floor(Math.random() * eligible.length)]!;
  if (!seen) {
    if (index.visitors.size >= maxVisitors) index.visitors.clear();
    seen = { byCampaign: new Map(), served: 0, clicks: 0 };
    index.visitors.set(request.visitor, seen);
  }
  seen.byCampaign.set(campaign.id, (seen.byCampaign.get(campaign.id) ?? 0) + 1);
  seen.served += 1;
  // A CPM serve is reserved as if it became viewable, so one process never serves past the hold.
  if (campaign.model === "cpm") campaign.localMilli += campaign.price;
  const filter: FilterReason | "" = request.bot
    ? "bot"
    : request.viewerId !== null && request.viewerId === campaign.advertiserId
      ? "self"
      : seen.served > adSettings.visitorServedPerDay
        ? "limit"
        : "";
  return {
    campaign,
    served: { serve: newServeId(), campaignId: campaign.id, day: index.day, creatorId: request.creatorId, filter, at: now.getTime() },
  };
}

/** A click of this visitor: true when they are past the day's click limit (the click is filtered). */
export function clickOverLimit(db: Database, visitor: string): boolean {
  const index = indexes.get(db);
  if (!index) return false;
  let seen = index.visitors.get(visitor);
  if (!seen) {
    seen = { byCampaign: new Map(), served: 0, clicks: 0 };
    index.visitors.set(visitor, seen);
  }
  seen.clicks += 1;
  return seen.clicks > adSettings.visitorClicksPerDay;
}

/** A campaign's destination, for the click redirect (from the index, or the database when it is no longer active). */
export async function campaignDestination(db: Database, id: number): Promise<string | null> {
  const indexed = indexes.get(db)?.campaigns.find((campaign) => campaign.id === id);
  if (indexed) return indexed.url;
  const [row] = await db.select({ url: adCampaigns.url }).from(adCampaigns).where(eq(adCampaigns.id, id));
  return row?.url ?? null;
}
