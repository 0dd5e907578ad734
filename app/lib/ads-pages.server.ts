import { and, eq, gte, inArray, sql } from "drizzle-orm";
import type { AppContext } from "../context.ts";
import { adCampaigns, adDailyCounts, dailyStats } from "../../server/db/schema/index.ts";
import { shanghaiDay } from "../../common/locale.ts";
import { translator } from "../../common/i18n.ts";
import { requireViewer } from "./context.server.ts";
import { walletPageData } from "./wallet-pages.server.ts";
import { withFormToken } from "./circle-pages.server.ts";
import { linesChartSvg, stackedBarsSvg } from "./analysis-charts.server.ts";
import { addDays, listOwnCampaigns, type CampaignRow } from "../../features/ads/campaigns.ts";
import { campaignStats, presentCampaign, presentCampaignDay } from "../../features/ads/operations.ts";
import { creatorAdsSetting } from "../../features/ads/creators.ts";
import { unitMilli } from "../../features/ads/serving.ts";
import { filterReasons } from "../../features/ads/settings.ts";
import { tradeCircles } from "./trade-pages.server.ts";

/* The advertiser's pages (`/ads/start`, `/ads/me`, `/ads/home`) and the creator's `/monetization/ads`. */

/** `/ads/start`: the circles to target, the wallet, a fresh idempotency key and the CSRF token. */
export async function startPageData(app: AppContext) {
  requireViewer(app);
  return walletPageData(app, { circles: await tradeCircles(app), today: shanghaiDay(app.now()) });
}

/** Charts of one campaign's days (server-rendered SVG, no script). */
function campaignCharts(app: AppContext, days: ReturnType<typeof presentCampaignDay>[]) {
  const t = translator(app.locale);
  const labels = days.map((day) => day.day);
  return {
    counts: linesChartSvg(
      labels,
      (["served", "viewable", "clicks"] as const).map((key) => ({ name: t(`ads:metrics.${key}`), values: days.map((day) => day[key]) })),
      app.locale,
    ),
    spend: stackedBarsSvg(labels, [{ name: t("ads:metrics.spend"), values: days.map((day) => day.spend) }], app.locale),
    filtered: stackedBarsSvg(
      labels,
      filterReasons.map((reason) => ({ name: t(`ads:filtered_by.${reason}`), values: days.map((day) => day.filtered_by[reason]) })),
      app.locale,
    ),
  };
}

/** `/ads/me`: one's campaigns, each with its days and charts. */
export async function myCampaignsData(app: AppContext) {
  const viewer = requireViewer(app);
  const rows = await listOwnCampaigns(app.db, viewer);
  const campaigns = [];
  for (const row of rows.slice(0, 20)) {
    const days =
      row.status === "pending_review" || row.status === "rejected" ? [] : (await campaignStats(app, row, {})).map(presentCampaignDay);
    campaigns.push({ ...presentCampaign(row), days, charts: days.length > 0 ? campaignCharts(app, days) : null });
  }
  return withFormToken(app, { campaigns });
}

/** What a campaign still holds (approved, not yet billed or released). */
function heldNow(row: CampaignRow): number {
  return row.status === "pending_review" || row.status === "rejected" ? 0 : row.budget - row.spent - row.released;
}

/** `/ads/home`: held now, today's estimated spend (from today's counts), campaigns needing attention, notices. */
export async function advertiserHomeData(app: AppContext) {
  const viewer = requireViewer(app);
  const rows = await listOwnCampaigns(app.db, viewer);
  const today = shanghaiDay(app.now());
  const running = rows.filter((row) => row.status === "active" || row.status === "paused");
  const todayCounts =
    running.length === 0
      ? []
      : await app.db
          .select({
            id: adDailyCounts.campaignId,
            units: sql<number>`sum(case when ${adCampaigns.pricingModel} = 'cpm' then ${adDailyCounts.viewable} - ${adDailyCounts.filteredViewable} else ${adDailyCounts.clicks} - ${adDailyCounts.filteredClicks} end)::int`,
          })
          .from(adDailyCounts)
          .innerJoin(adCampaigns, eq(adCampaigns.id, adDailyCounts.campaignId))
          .where(
            and(
              inArray(
                adDailyCounts.campaignId,
                running.map((row) => row.id),
              ),
              eq(adDailyCounts.day, today),
            ),
          )
          .groupBy(adDailyCounts.campaignId);
  const byId = new Map(rows.map((row) => [row.id, row]));
  const spentToday = todayCounts.reduce((sum, { id, units }) => {
    const row = byId.get(id)!;
    return sum + Math.min(row.dailyCap, Math.floor((units * unitMilli(row.pricingModel, row.price)) / 1000));
  }, 0);
  const attention = rows.filter((row) => row.status === "rejected" || row.status === "paused" || row.status === "exhausted").slice(0, 10);
  return {
    held: rows.reduce((sum, row) => sum + heldNow(row), 0),
    spentToday,
    pending: rows.filter((row) => row.status === "pending_review").length,
    attention: attention.map(presentCampaign),
  };
}

/** `/monetization/ads`: the participant's choice and their ad income of the last 30 days (the rollups). */
export async function creatorAdsData(app: AppContext) {
  const viewer = requireViewer(app);
  const setting = await creatorAdsSetting(app.db, viewer);
  const since = addDays(shanghaiDay(app.now()), -29);
  const [income] = await app.db
    .select({ total: sql<number>`coalesce(sum(${dailyStats.incomeAds}), 0)::int` })
    .from(dailyStats)
    .where(and(eq(dailyStats.subjectType, "user"), eq(dailyStats.subjectId, viewer.id), gte(dailyStats.day, since)));
  return withFormToken(app, { enabled: setting.enabled, income: income?.total ?? 0 });
}
