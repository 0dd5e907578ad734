import { Form } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import type { Route } from "./+types/monetization-ads";
import { getAppContext, signedInFormPost } from "../lib/context.server.ts";
import { creatorAdsData } from "../lib/ads-pages.server.ts";
import { translator } from "../../common/i18n.ts";
import { pageMeta } from "../lib/meta.ts";
import { dispatchIntent, formAction, type FormFailure } from "../../server/lib/operation.ts";
import { setCreatorAdsOperation } from "../../features/ads/operations.ts";
import { adSettings } from "../../features/ads/settings.ts";
import "../lib/ads-catalog.ts";

export const meta: Route.MetaFunction = ({ location }) => pageMeta(location, "ads:monetization_title");
export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

/** `/monetization/ads`: a monetization participant shows ads on their pages (and earns their share) or opts out. */
export async function loader({ context }: Route.LoaderArgs) {
  return creatorAdsData(getAppContext(context));
}

export async function action(args: Route.ActionArgs) {
  const post = await signedInFormPost(args);
  const set = (enabled: boolean) =>
    formAction(setCreatorAdsOperation, {
      body: () => ({ enabled }),
      done: () => ({ notice: translator(post.app.locale)("ads:monetization_saved") }),
      failed: (failure: FormFailure) => ({ error: failure.formError ?? failure.code }),
    });
  return dispatchIntent(post, { on: set(true), off: set(false) });
}

export default function MonetizationAds({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("ads");
  const { enabled, income, csrfToken } = loaderData;
  const answer = actionData as { notice?: string; error?: string } | undefined;
  return (
    <section className="panel" aria-labelledby="monetization-ads-title">
      <h1 id="monetization-ads-title" className="page-title">
        {t("monetization_title")}
      </h1>
      <p>{t("monetization_intro", { percent: adSettings.creatorsSharePercent })}</p>
      {answer?.notice ? <p role="status">{answer.notice}</p> : null}
      {answer?.error ? <p role="alert">{answer.error}</p> : null}
      <p data-testid="ads-enabled">
        <strong>{enabled ? t("monetization_enabled") : t("monetization_disabled")}</strong>
      </p>
      <Form method="post">
        <input type="hidden" name="csrftoken" value={csrfToken} />
        <input type="hidden" name="intent" value={enabled ? "off" : "on"} />
        <button type="submit" className="button">
          {enabled ? t("monetization_off") : t("monetization_on")}
        </button>
      </Form>
      <p className="muted">{t("monetization_income", { amount: income })}</p>
    </section>
  );
}
