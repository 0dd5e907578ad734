/**
 * The rules of self-serve ads (docs/features/ads.md), in one place: the price floors, the
 * creators' share, the per-visitor limits and how long a served ad's token stays good.
 */
export const adSettings = {
  /** The lowest price: sinecoin per 1,000 viewable impressions (CPM) or per click (CPC). */
  floor: { cpm: 10, cpc: 1 },
  /** Percent of the billable spend on a participating creator's pages credited to them daily. */
  creatorsSharePercent: 50,
  /** The same campaign to the same visitor at most this many times a day. */
  frequencyCapPerDay: 3,
  /** Past these per day, a visitor's ad events still count but are filtered (never billed). */
  visitorServedPerDay: 60,
  visitorClicksPerDay: 10,
  /** A served ad's token is good for its viewable report and its click this long. */
  tokenLifeMs: 24 * 3_600_000,
  /** Event marks older than this many days are pruned (longer than any token lives). */
  keepMarksDays: 3,
  /** Review times promised on `/ads`. */
  reviewHours: 24,
  /** How far ahead a campaign may start and how long it may run. */
  maxDaysAhead: 90,
  maxRunDays: 365,
  maxBudget: 10_000_000,
} as const;

export const adPlacements = ["article", "question", "entry", "feed"] as const;
export type AdPlacement = (typeof adPlacements)[number];

export const adLanguages = ["zh-CN", "en"] as const;

export const campaignStatuses = ["pending_review", "active", "paused", "exhausted", "ended", "rejected"] as const;
export type CampaignStatus = (typeof campaignStatuses)[number];

export const filterReasons = ["bot", "limit", "self", "no_script"] as const;
export type FilterReason = (typeof filterReasons)[number];
