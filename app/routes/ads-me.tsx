import { Form, Link } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import type { Route } from "./+types/ads-me";
import { getAppContext, signedInFormPost } from "../lib/context.server.ts";
import { myCampaignsData } from "../lib/ads-pages.server.ts";
import { localizePath, pageUrl, type Locale } from "../../common/locale.ts";
import { translator } from "../../common/i18n.ts";
import { pageMeta } from "../lib/meta.ts";
import { dispatchIntent, formAction, type FormFailure } from "../../server/lib/operation.ts";
import { updateCampaignOperation } from "../../features/ads/operations.ts";
import { ServerChart } from "../components/analysis-parts.tsx";
import "../lib/ads-catalog.ts";
import creatorStyles from "../styles/creator.css?url";

export const meta: Route.MetaFunction = ({ location }) => pageMeta(location, "ads:me_title");
export const links = () => [{ rel: "stylesheet", href: creatorStyles }];
export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

/** `/ads/me`: one's campaigns with their status (and a rejection's reason), spend against budget, pause/resume, a change of the ad (reviewed again) and daily charts. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const page = await myCampaignsData(getAppContext(context));
  return { ...page.data, created: pageUrl(request.url).searchParams.has("created") };
}

export async function action(args: Route.ActionArgs) {
  const post = await signedInFormPost(args);
  const t = translator(post.app.locale);
  const setStatus = (status: "paused" | "active") =>
    formAction(updateCampaignOperation, {
      params: () => ({ id: Number(post.form.get("campaign_id")) }),
      body: () => ({ status }),
      done: () => ({ notice: t(status === "paused" ? "ads:paused_notice" : "ads:resumed_notice") }),
      failed: (failure: FormFailure) => ({ error: failure.formError ?? Object.values(failure.fieldErrors ?? {})[0] }),
    });
  const changeCreative = formAction(updateCampaignOperation, {
    params: () => ({ id: Number(post.form.get("campaign_id")) }),
    body: (form) => ({
      title: String(form.get("title") ?? ""),
      text: String(form.get("text") ?? ""),
      image_file_id: String(form.get("image_file_id") ?? ""),
      url: String(form.get("url") ?? ""),
    }),
    done: () => ({ notice: t("ads:changed_notice") }),
    failed: (failure: FormFailure) => ({
      error: failure.formError ?? Object.values(failure.fieldErrors ?? {}).join(" "),
      campaignId: Number(post.form.get("campaign_id")),
    }),
  });
  return dispatchIntent(post, { pause: setStatus("paused"), resume: setStatus("active"), creative: changeCreative });
}

export default function AdsMe({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("ads");
  const locale = i18n.language as Locale;
  const { campaigns, csrfToken, created } = loaderData;
  const answer = actionData as { notice?: string; error?: string } | undefined;
  const percent = (part: number, whole: number) => (whole > 0 ? `${((part * 100) / whole).toFixed(2)}%` : "—");
  return (
    <section className="panel" aria-labelledby="ads-me-title">
      <h1 id="ads-me-title" className="page-title">
        {t("me_title")}
      </h1>
      <p>
        <Link to={localizePath("/ads/start", locale)} className="button button-primary">
          {t("start")}
        </Link>{" "}
        <Link to={localizePath("/ads/home", locale)}>{t("links_home")}</Link>
      </p>
      {created ? <p role="status">{t("created_notice")}</p> : null}
      {answer?.notice ? <p role="status">{answer.notice}</p> : null}
      {answer?.error ? <p role="alert">{answer.error}</p> : null}
      {campaigns.length === 0 ? <p className="muted">{t("none")}</p> : null}
      {campaigns.map((campaign) => (
        <article
          key={campaign.id}
          className="panel"
          data-testid={`campaign-${campaign.id}`}
          aria-labelledby={`campaign-${campaign.id}-title`}
        >
          <h2 id={`campaign-${campaign.id}-title`}>
            {campaign.title} <span className="ad-label">{t(`status.${campaign.status}`)}</span>
          </h2>
          {campaign.reject_reason ? <p role="note">{t("rejected_reason", { reason: campaign.reject_reason })}</p> : null}
          {campaign.pending_creative ? <p role="note">{t("change_pending", { title: campaign.pending_creative.title })}</p> : null}
          {campaign.creative_reject_reason ? <p role="note">{t("change_rejected", { reason: campaign.creative_reject_reason })}</p> : null}
          <p className="muted">
            {t("spend_of_budget", { spent: campaign.spent, budget: campaign.budget })} ·{" "}
            {t("dates", { from: campaign.starts_on, to: campaign.ends_on })} · {campaign.pricing.model.toUpperCase()}{" "}
            {campaign.pricing.price}
          </p>
          {campaign.status === "active" || campaign.status === "paused" ? (
            <Form method="post">
              <input type="hidden" name="csrftoken" value={csrfToken} />
              <input type="hidden" name="campaign_id" value={campaign.id} />
              <input type="hidden" name="intent" value={campaign.status === "active" ? "pause" : "resume"} />
              <button type="submit" className="button">
                {campaign.status === "active" ? t("pause") : t("resume")}
              </button>
            </Form>
          ) : null}
          {campaign.status !== "ended" && campaign.status !== "exhausted" ? (
            <details>
              <summary>{t("edit_creative")}</summary>
              <p className="muted">{t("edit_creative_hint")}</p>
              <Form method="post" className="stack">
                <input type="hidden" name="csrftoken" value={csrfToken} />
                <input type="hidden" name="campaign_id" value={campaign.id} />
                <input type="hidden" name="intent" value="creative" />
                <input type="hidden" name="image_file_id" value={campaign.pending_creative?.image_file_id ?? campaign.image_file_id} />
                <label>
                  {t("field_title")}{" "}
                  <input name="title" required maxLength={30} defaultValue={campaign.pending_creative?.title ?? campaign.title} />
                </label>
                <label>
                  {t("field_text")}{" "}
                  <textarea name="text" required maxLength={80} defaultValue={campaign.pending_creative?.text ?? campaign.text} />
                </label>
                <label>
                  {t("field_url")} <input name="url" type="url" required defaultValue={campaign.pending_creative?.url ?? campaign.url} />
                </label>
                <button type="submit" className="button">
                  {t("edit_submit")}
                </button>
              </Form>
            </details>
          ) : null}
          {campaign.charts ? (
            <>
              <ServerChart svg={campaign.charts.counts} label={t("chart_counts")} />
              <ServerChart svg={campaign.charts.spend} label={t("chart_spend")} />
              <ServerChart svg={campaign.charts.filtered} label={t("chart_filtered")} />
              <table className="creator-table">
                <thead>
                  <tr>
                    <th scope="col">{t("day")}</th>
                    {(["served", "viewable", "clicks", "ctr", "billable", "filtered", "spend"] as const).map((key) => (
                      <th scope="col" key={key}>
                        {t(`metrics.${key}`)}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {campaign.days.map((day) => (
                    <tr key={day.day}>
                      <th scope="row">{day.day}</th>
                      <td>{day.served}</td>
                      <td>{day.viewable}</td>
                      <td>{day.clicks}</td>
                      <td>{percent(day.clicks, day.served)}</td>
                      <td>{day.billable}</td>
                      <td>{day.filtered}</td>
                      <td>{day.spend}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </>
          ) : null}
        </article>
      ))}
    </section>
  );
}
