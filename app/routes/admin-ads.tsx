import { Form } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import type { Route } from "./+types/admin-ads";
import { getAppContext, signedInFormPost } from "../lib/context.server.ts";
import { withFormToken } from "../lib/circle-pages.server.ts";
import { translator } from "../../common/i18n.ts";
import { pageMeta } from "../lib/meta.ts";
import { dispatchIntent, formAction, type FormFailure } from "../../server/lib/operation.ts";
import { requireStaff } from "../../features/admin/staff.ts";
import { pendingCampaigns } from "../../features/ads/review.ts";
import { approveCampaignOperation, presentCampaign, rejectCampaignOperation } from "../../features/ads/operations.ts";
import { AdCard } from "../components/ad-card.tsx";
import "../lib/admin-catalog.ts";
import "../lib/ads-catalog.ts";

export const meta: Route.MetaFunction = ({ location }) => pageMeta(location, "ads:admin_title");
export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

/**
 * `/admin/ads` (admins): campaigns waiting for review, each as it will look (a changed ad beside the
 * one shown now), with approve and reject (with a reason), naming the revision shown.
 */
export async function loader({ context }: Route.LoaderArgs) {
  const app = getAppContext(context);
  await requireStaff(app.db, app.viewer, "manage_ledger");
  const rows = await pendingCampaigns(app.db);
  return withFormToken(app, { campaigns: rows.map((row) => ({ ...presentCampaign(row), advertiser_id: row.advertiserId })) });
}

export async function action(args: Route.ActionArgs) {
  const post = await signedInFormPost(args);
  const t = translator(post.app.locale);
  const failed = (failure: FormFailure) => ({ error: failure.formError ?? Object.values(failure.fieldErrors ?? {})[0] });
  const id = () => ({ id: Number(post.form.get("campaign_id")) });
  const revision = (form: FormData) => Number(form.get("revision"));
  return dispatchIntent(post, {
    approve: formAction(approveCampaignOperation, {
      params: id,
      body: (form) => ({ revision: revision(form) }),
      done: () => ({ notice: t(post.form.get("change") === "1" ? "ads:admin_change_approved" : "ads:admin_approved") }),
      failed,
    }),
    reject: formAction(rejectCampaignOperation, {
      params: id,
      body: (form) => ({ reason: String(form.get("reason") ?? ""), revision: revision(form) }),
      done: () => ({ notice: t("ads:admin_rejected") }),
      failed,
    }),
  });
}

export default function AdminAds({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("ads");
  const { campaigns, csrfToken } = loaderData;
  const answer = actionData as { notice?: string; error?: string } | undefined;
  return (
    <section className="panel">
      <h1 className="page-title">{t("admin_title")}</h1>
      {answer?.notice ? <p role="status">{answer.notice}</p> : null}
      {answer?.error ? <p role="alert">{answer.error}</p> : null}
      {campaigns.length === 0 ? <p className="muted">{t("admin_none")}</p> : null}
      {campaigns.map((campaign) => (
        <article key={campaign.id} data-testid={`review-${campaign.id}`}>
          {campaign.pending_creative ? <p>{t("admin_change")}</p> : null}
          <AdCard ad={{ title: campaign.title, text: campaign.text, image_url: campaign.image_url, href: campaign.url }} />
          {campaign.pending_creative ? (
            <>
              <p>{t("admin_change_to")}</p>
              <AdCard
                ad={{
                  title: campaign.pending_creative.title,
                  text: campaign.pending_creative.text,
                  image_url: campaign.pending_creative.image_url,
                  href: campaign.pending_creative.url,
                }}
              />
            </>
          ) : null}
          <p className="muted">
            {campaign.pending_creative?.url ?? campaign.url} ·{" "}
            {t("admin_meta", {
              advertiser: campaign.advertiser_id,
              model: campaign.pricing.model.toUpperCase(),
              price: campaign.pricing.price,
              budget: campaign.budget,
              daily: campaign.daily_cap,
              from: campaign.starts_on,
              to: campaign.ends_on,
            })}
          </p>
          <Form method="post">
            <input type="hidden" name="csrftoken" value={csrfToken} />
            <input type="hidden" name="campaign_id" value={campaign.id} />
            <input type="hidden" name="revision" value={campaign.revision} />
            <input type="hidden" name="change" value={campaign.pending_creative ? "1" : "0"} />
            <input type="hidden" name="intent" value="approve" />
            <button type="submit" className="button button-primary">
              {t("admin_approve")}
            </button>
          </Form>
          <Form method="post">
            <input type="hidden" name="csrftoken" value={csrfToken} />
            <input type="hidden" name="campaign_id" value={campaign.id} />
            <input type="hidden" name="revision" value={campaign.revision} />
            <input type="hidden" name="change" value={campaign.pending_creative ? "1" : "0"} />
            <input type="hidden" name="intent" value="reject" />
            <label>
              {t("admin_reason")} <input name="reason" required />
            </label>{" "}
            <button type="submit" className="button">
              {t("admin_reject")}
            </button>
          </Form>
        </article>
      ))}
    </section>
  );
}
