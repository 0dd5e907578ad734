import { Link } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import type { Route } from "./+types/ads";
import { localizePath, type Locale } from "../../common/locale.ts";
import { pageMeta } from "../lib/meta.ts";
import { AdCard } from "../components/ad-card.tsx";
import { adSettings } from "../../features/ads/settings.ts";
import "../lib/ads-catalog.ts";

export const meta: Route.MetaFunction = ({ location }) => pageMeta(location, "ads:title");

/** `/ads`: what an ad is here, where it appears (the slots as they look), prices, rules, review times and the Start button. Public and cached. */
export function loader() {
  return {
    floor: adSettings.floor,
    reviewHours: adSettings.reviewHours,
    sharePercent: adSettings.creatorsSharePercent,
  };
}

export default function Ads({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("ads");
  const locale = i18n.language as Locale;
  const sample = { title: t("sample_title"), text: t("sample_text"), image_url: "", href: localizePath("/ads/start", locale) };
  return (
    <section className="panel" aria-labelledby="ads-title">
      <h1 id="ads-title" className="page-title">
        {t("title")}
      </h1>
      <p>{t("intro")}</p>
      <p>
        <Link to={localizePath("/ads/start", locale)} className="button button-primary">
          {t("start")}
        </Link>{" "}
        <Link to={localizePath("/ads/home", locale)}>{t("links_home")}</Link> ·{" "}
        <Link to={localizePath("/ads/me", locale)}>{t("links_me")}</Link>
      </p>
      <h2>{t("where_title")}</h2>
      <ul>
        <li>{t("where_article")}</li>
        <li>{t("where_feed")}</li>
        <li>{t("where_none")}</li>
      </ul>
      <div className="ad-previews">
        <figure>
          <figcaption className="muted">{t("slot_article")}</figcaption>
          <AdCard ad={sample} />
        </figure>
        <figure>
          <figcaption className="muted">{t("slot_feed")}</figcaption>
          <AdCard ad={sample} />
        </figure>
      </div>
      <h2>{t("prices_title")}</h2>
      <ul>
        <li>{t("price_cpm", { floor: loaderData.floor.cpm })}</li>
        <li>{t("price_cpc", { floor: loaderData.floor.cpc })}</li>
        <li>{t("price_budget")}</li>
      </ul>
      <h2>{t("rules_title")}</h2>
      <ul>
        <li>{t("rules_review", { hours: loaderData.reviewHours })}</li>
        <li>{t("rules_content")}</li>
        <li>{t("rules_traffic")}</li>
        <li>{t("rules_share", { percent: loaderData.sharePercent })}</li>
      </ul>
    </section>
  );
}
