import type { FastifyInstance, FastifyRequest, FastifyReply } from "fastify";
import { z } from "zod";
import { idSchema } from "../../common/id.ts";
import { AppError } from "../../common/app-error.ts";
import { jsonRoute, personal } from "../../server/lib/operation.ts";
import { resolveVisitor, visitorCookieName } from "../../server/lib/visitor.ts";
import { isBotAgent } from "../metrics/views.ts";
import {
  approveCampaignOperation,
  campaignStatsOperation,
  circleAdsOperation,
  setCircleAdsOperation,
  createCampaignOperation,
  creatorAdsOperation,
  getCampaignOperation,
  listCampaignsOperation,
  pendingCampaignsOperation,
  rejectCampaignOperation,
  setCreatorAdsOperation,
  updateCampaignOperation,
} from "./operations.ts";
import { adLanguages, adPlacements } from "./settings.ts";
import { chooseAd, campaignDestination, clickOverLimit, dropAdIndex } from "./serving.ts";
import { recordAdEvent, startAdCounting } from "./counting.ts";
import { readServedAd, signServedAd } from "./token.ts";
import { pageCreator } from "./placement.ts";
import { adSettings } from "./settings.ts";

/** Members who do not see ads (a membership benefit). */
const adFreeTypes = new Set(["VIP users", "SVIP users"]);

const slotQuery = z.object({
  placement: z.enum(adPlacements),
  circle_id: idSchema.optional(),
  language: z.enum(adLanguages).optional(),
  subject_type: z.enum(["writing", "question", "entry"]).optional(),
  subject_id: idSchema.optional(),
});
const slotAnswer = z.object({ token: z.string(), title: z.string(), text: z.string(), image_url: z.string(), url: z.string() });
const eventBody = z.strictObject({ token: z.string().max(300), type: z.literal("viewable") });

/** Self-serve ads: campaigns, review, the slot, its viewable beacon and the click redirect (docs/features/ads.md). */
export async function adsApi(app: FastifyInstance, options: { secret: string }): Promise<void> {
  const tags = ["ads"];
  const secret = options.secret;
  const stopCounting = startAdCounting(app.db, (error) => app.log.error({ err: error }, "ad counts not flushed"));
  app.addHook("onClose", async () => {
    await stopCounting();
    dropAdIndex(app.db);
  });

  jsonRoute(app, "POST", "/api/ads/campaigns/", createCampaignOperation, {
    status: 201,
    tags,
    summary: "Create an ad campaign, pending review (Idempotency-Key required); its budget is held at approval",
  });
  jsonRoute(app, "GET", "/api/ads/campaigns/", listCampaignsOperation, { tags, summary: "One's ad campaigns, newest first" });
  jsonRoute(app, "GET", "/api/ads/campaigns/:id/", getCampaignOperation, { tags, summary: "One of one's ad campaigns" });
  jsonRoute(app, "PATCH", "/api/ads/campaigns/:id/", updateCampaignOperation, { tags, summary: "Pause or resume one's campaign" });
  jsonRoute(app, "GET", "/api/ads/campaigns/:id/stats/", campaignStatsOperation, {
    tags,
    summary: "A campaign's days: served, viewable, clicks, billable, filtered (by reason) and spend",
  });
  jsonRoute(app, "GET", "/api/admin/ads/campaigns/", pendingCampaignsOperation, { tags, summary: "Admins: campaigns waiting for review" });
  jsonRoute(app, "POST", "/api/admin/ads/campaigns/:id/approve/", approveCampaignOperation, {
    tags,
    summary: "Admins: approve a campaign; its whole budget moves into its hold",
  });
  jsonRoute(app, "POST", "/api/admin/ads/campaigns/:id/reject/", rejectCampaignOperation, {
    tags,
    summary: "Admins: reject a campaign with a reason the advertiser sees",
  });
  jsonRoute(app, "GET", "/api/monetization/ads/", creatorAdsOperation, { tags, summary: "Whether ads show on one's pages (participants)" });
  jsonRoute(app, "PUT", "/api/monetization/ads/", setCreatorAdsOperation, {
    tags,
    summary: "Opt one's pages in or out of ads and their share",
  });

  jsonRoute(app, "GET", "/api/circles/:id/ads/", circleAdsOperation, {
    tags,
    summary: "Whether a circle's pages are ad-free (those who may edit its settings)",
  });
  jsonRoute(app, "PUT", "/api/circles/:id/ads/", setCircleAdsOperation, {
    tags,
    summary: "Mark a circle's pages ad-free, or show ads on them again",
  });

  const visitorOf = async (request: FastifyRequest, reply: FastifyReply) => {
    const viewer = await request.viewer();
    const { key, issued } = resolveVisitor(viewer, request.cookies[visitorCookieName], request.protocol === "https");
    if (issued) reply.header("set-cookie", issued);
    return { viewer, key };
  };

  app.get(
    "/api/ads/slot/",
    {
      schema: {
        operationId: "adSlot",
        tags,
        summary: "An ad for a slot (204: nothing to show); counted as served",
        querystring: slotQuery,
        response: { 200: slotAnswer, 204: z.null().describe("No content") },
      },
    },
    async (request, reply) => {
      const query = request.query as z.infer<typeof slotQuery>;
      const { viewer, key } = await visitorOf(request, reply);
      personal(reply);
      if (viewer && adFreeTypes.has(viewer.userType)) return reply.status(204).send();
      const now = app.now();
      const creatorId = query.subject_type && query.subject_id ? await pageCreator(app.db, query.subject_type, query.subject_id, now) : 0;
      const chosen = await chooseAd(
        app.db,
        {
          circleId: query.circle_id ?? null,
          language: query.language ?? request.locale,
          visitor: key,
          viewerId: viewer?.id ?? null,
          creatorId,
          bot: isBotAgent(request.headers["user-agent"]),
        },
        now,
      );
      if (!chosen) return reply.status(204).send();
      recordAdEvent(app.db, chosen.served, "served");
      const { campaign } = chosen;
      return reply.send({
        token: signServedAd(secret, chosen.served),
        title: campaign.title,
        text: campaign.text,
        image_url: campaign.imageUrl,
        url: campaign.url,
      });
    },
  );

  // Authenticated by the served ad's signed token, not by a session: pages without a CSRF token (cached, anonymous) report too.
  app.post(
    "/api/ads/events/",
    {
      config: { signedCallback: true },
      schema: { operationId: "adEvent", tags, summary: "The viewable beacon of a served ad", body: eventBody, response: { 204: z.null() } },
    },
    async (request, reply) => {
      const body = request.body as z.infer<typeof eventBody>;
      const served = readServedAd(secret, body.token);
      personal(reply);
      if (!served || app.now().getTime() - served.at > adSettings.tokenLifeMs) return reply.status(204).send();
      const filter = served.filter || (isBotAgent(request.headers["user-agent"]) ? "bot" : "");
      recordAdEvent(app.db, served, "viewable", filter);
      return reply.status(204).send();
    },
  );

  app.get("/ads/click/:token", { schema: { hide: true, params: z.object({ token: z.string().max(300) }) } }, async (request, reply) => {
    const served = readServedAd(secret, (request.params as { token: string }).token);
    if (!served) throw new AppError("not_found");
    const url = await campaignDestination(app.db, served.campaignId);
    if (!url) throw new AppError("not_found");
    if (app.now().getTime() - served.at <= adSettings.tokenLifeMs) {
      const { viewer, key } = await visitorOf(request, reply);
      const filter =
        served.filter ||
        (isBotAgent(request.headers["user-agent"])
          ? "bot"
          : viewer && viewer.id === served.creatorId
            ? "self"
            : clickOverLimit(app.db, key)
              ? "limit"
              : "");
      recordAdEvent(app.db, served, "click", filter);
    }
    return personal(reply).header("referrer-policy", "no-referrer").redirect(url, 302);
  });
}
