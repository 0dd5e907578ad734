import { Link } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import type { Route } from "./+types/ads-home";
import { getAppContext } from "../lib/context.server.ts";
import { advertiserHomeData } from "../lib/ads-pages.server.ts";
import { localizePath, type Locale } from "../../common/locale.ts";
import { pageMeta } from "../lib/meta.ts";
import "../lib/ads-catalog.ts";

export const meta: Route.MetaFunction = ({ location }) => pageMeta(location, "ads:home_title");

/** `/ads/home`: the advertiser's overview: held now, today's estimated spend, campaigns needing attention, notices. */
export async function loader({ context }: Route.LoaderArgs) {
  return advertiserHomeData(getAppContext(context));
}

export default function AdsHome({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("ads");
  const locale = i18n.language as Locale;
  const { held, spentToday, pending, attention } = loaderData;
  return (
    <section className="panel" aria-labelledby="ads-home-title">
      <h1 id="ads-home-title" className="page-title">
        {t("home_title")}
      </h1>
      <p>
        <Link to={localizePath("/ads/start", locale)} className="button button-primary">
          {t("start")}
        </Link>{" "}
        <Link to={localizePath("/ads/me", locale)}>{t("links_me")}</Link> · <Link to={localizePath("/ads", locale)}>{t("title")}</Link>
      </p>
      <dl className="creator-counts" data-testid="ads-overview">
        <dt>{t("held")}</dt>
        <dd>{held}</dd>
        <dt>{t("spent_today")}</dt>
        <dd>{spentToday}</dd>
      </dl>
      <h2>{t("attention")}</h2>
      {attention.length === 0 ? <p className="muted">{t("attention_none")}</p> : null}
      <ul>
        {attention.map((campaign) => (
          <li key={campaign.id}>
            <Link to={localizePath("/ads/me", locale)}>{campaign.title}</Link> · {t(`status.${campaign.status}`)}
            {campaign.reject_reason ? ` · ${t("rejected_reason", { reason: campaign.reject_reason })}` : ""}
          </li>
        ))}
      </ul>
      <h2>{t("notices")}</h2>
      <ul>
        {pending > 0 ? <li>{t("notice_pending", { count: pending })}</li> : null}
        <li>{t("notice_billing")}</li>
      </ul>
    </section>
  );
}
