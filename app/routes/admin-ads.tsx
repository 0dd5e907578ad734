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

/** `/admin/ads` (admins): campaigns waiting for review, each as it will look, with approve and reject (with a reason). */
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
  return dispatchIntent(post, {
    approve: formAction(approveCampaignOperation, {
      params: id,
      body: () => ({}),
      done: () => ({ notice: t("ads:admin_approved") }),
      failed,
    }),
    reject: formAction(rejectCampaignOperation, {
      params: id,
      body: (form) => ({ reason: String(form.get("reason") ?? "") }),
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
          <AdCard ad={{ title: campaign.title, text: campaign.text, image_url: campaign.image_url, href: campaign.url }} />
          <p className="muted">
            {campaign.url} ·{" "}
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
            <input type="hidden" name="intent" value="approve" />
            <button type="submit" className="button button-primary">
              {t("admin_approve")}
            </button>
          </Form>
          <Form method="post">
            <input type="hidden" name="csrftoken" value={csrfToken} />
            <input type="hidden" name="campaign_id" value={campaign.id} />
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
