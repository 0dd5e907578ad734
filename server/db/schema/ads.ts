import { sql } from "drizzle-orm";
import { boolean, check, date, index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp } from "drizzle-orm/pg-core";
import { users } from "./accounts.ts";
import { circles } from "./circles.ts";

/** A creative as the advertiser wrote it: what an admin reviews before it is shown. */
export interface AdCreative {
  title: string;
  text: string;
  imageFileId: string;
  url: string;
}

/**
 * Self-serve ads (docs/features/ads.md). A campaign is created `pending_review`; an admin approves
 * it (its whole budget moves from the advertiser's sinecoin into the campaign's hold account,
 * `system:ad_campaign:<id>`) or rejects it with a reason. `spent` is what the daily billing has
 * taken from the hold so far; `released` what went back to the advertiser when it ended.
 */
export const adCampaigns = pgTable(
  "ad_campaigns",
  {
    id: serial("id").primaryKey(),
    advertiserId: integer("advertiser_id")
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    title: text("title").notNull(),
    text: text("text").notNull(),
    imageFileId: text("image_file_id").notNull(),
    url: text("url").notNull(),
    /** Circles whose pages may show it; empty: every circle. */
    circleIds: jsonb("circle_ids").$type<number[]>().notNull().default([]),
    /** Interface languages it is shown in (`zh-CN`, `en`). */
    languages: jsonb("languages").$type<string[]>().notNull(),
    pricingModel: text("pricing_model", { enum: ["cpm", "cpc"] }).notNull(),
    /** Sinecoin per 1,000 viewable impressions (CPM) or per click (CPC). */
    price: integer("price").notNull(),
    budget: integer("budget").notNull(),
    dailyCap: integer("daily_cap").notNull(),
    startsOn: date("starts_on", { mode: "string" }).notNull(),
    endsOn: date("ends_on", { mode: "string" }).notNull(),
    status: text("status", { enum: ["pending_review", "active", "paused", "exhausted", "ended", "rejected"] })
      .notNull()
      .default("pending_review"),
    rejectReason: text("reject_reason"),
    /**
     * A changed creative of an approved campaign, waiting for review: the campaign keeps showing
     * the creative approved before it (`title`, `text`, `image_file_id`, `url`) until an admin
     * approves the change, which then replaces it. Null: no change waiting.
     */
    pendingCreative: jsonb("pending_creative").$type<AdCreative>(),
    submittedAt: timestamp("submitted_at", { withTimezone: true }),
    /** Raised by every change of the creative: an approval names the revision the admin saw, so a later change is never approved unseen. */
    revision: integer("revision").notNull().default(0),
    /** Why the last changed creative was refused (the approved one kept showing). */
    creativeRejectReason: text("creative_reject_reason"),
    reviewedAt: timestamp("reviewed_at", { withTimezone: true }),
    spent: integer("spent").notNull().default(0),
    released: integer("released").notNull().default(0),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("ad_campaigns_advertiser_idx").on(table.advertiserId, table.id),
    index("ad_campaigns_status_idx").on(table.status, table.id),
    check(
      "ad_campaigns_amounts_check",
      sql`${table.price} > 0 and ${table.budget} > 0 and ${table.dailyCap} > 0 and ${table.spent} >= 0 and ${table.released} >= 0 and ${table.spent} + ${table.released} <= ${table.budget} and ${table.endsOn} >= ${table.startsOn}`,
    ),
  ],
);

/**
 * Counts per campaign, Asia/Shanghai day and creator whose page showed the ad (0: no creator's
 * page, the home feed). `filtered_viewable` and `filtered_clicks` are the viewable impressions and
 * clicks that are never billed; `filtered` holds their numbers by reason. `billed_units` and
 * `spend` are written once by the day's billing.
 */
export const adDailyCounts = pgTable(
  "ad_daily_counts",
  {
    campaignId: integer("campaign_id")
      .notNull()
      .references(() => adCampaigns.id, { onDelete: "cascade" }),
    day: date("day", { mode: "string" }).notNull(),
    creatorId: integer("creator_id").notNull().default(0),
    served: integer("served").notNull().default(0),
    viewable: integer("viewable").notNull().default(0),
    clicks: integer("clicks").notNull().default(0),
    filteredViewable: integer("filtered_viewable").notNull().default(0),
    filteredClicks: integer("filtered_clicks").notNull().default(0),
    filteredBot: integer("filtered_bot").notNull().default(0),
    filteredLimit: integer("filtered_limit").notNull().default(0),
    filteredSelf: integer("filtered_self").notNull().default(0),
    filteredNoScript: integer("filtered_no_script").notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.campaignId, table.day, table.creatorId] }), index("ad_daily_counts_day_idx").on(table.day)],
);

/**
 * One row per counted event of a served ad (`served`, `viewable`, `click`): the flush inserts its
 * marks and counts only those it inserted, so an event flushed twice (a retried flush, a second
 * process) counts once, and a click or viewable report counts at most once per served ad.
 * Rows older than the tokens' life are pruned.
 */
export const adEventMarks = pgTable(
  "ad_event_marks",
  {
    serveId: text("serve_id").notNull(),
    type: text("type", { enum: ["served", "viewable", "click"] }).notNull(),
    day: date("day", { mode: "string" }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.serveId, table.type] }), index("ad_event_marks_day_idx").on(table.day)],
);

/**
 * The day's bill of a campaign: written with its ledger transaction (`ad_payout:<campaign>:<day>`),
 * so a second run of the billing finds it and moves nothing.
 */
export const adBillings = pgTable(
  "ad_billings",
  {
    campaignId: integer("campaign_id")
      .notNull()
      .references(() => adCampaigns.id, { onDelete: "cascade" }),
    day: date("day", { mode: "string" }).notNull(),
    billableUnits: integer("billable_units").notNull(),
    spend: integer("spend").notNull(),
    creatorsShare: integer("creators_share").notNull(),
    platformShare: integer("platform_share").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.campaignId, table.day] }),
    check("ad_billings_amounts_check", sql`${table.spend} >= 0 and ${table.creatorsShare} + ${table.platformShare} = ${table.spend}`),
  ],
);

/** Monetization participants' choice to show ads on their pages and share their spend (`/monetization/ads`). */
export const adCreatorSettings = pgTable("ad_creator_settings", {
  userId: integer("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  enabled: boolean("enabled").notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/** Circles whose pages show no ads, marked by their administrators (those who may edit the circle's settings). */
export const adFreeCircles = pgTable("ad_free_circles", {
  circleId: integer("circle_id")
    .primaryKey()
    .references(() => circles.id, { onDelete: "cascade" }),
  setBy: integer("set_by").references(() => users.id, { onDelete: "set null" }),
  setAt: timestamp("set_at", { withTimezone: true }).notNull().defaultNow(),
});
