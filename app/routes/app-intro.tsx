import { Link } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import type { Route } from "./+types/app-intro";
import { addCatalog } from "../../common/i18n.ts";
import { localizePath, type Locale } from "../../common/locale.ts";
import { pageMeta } from "../lib/meta.ts";
import zhPages from "../../common/locales/zh-CN/pages.json" with { type: "json" };
import enPages from "../../common/locales/en/pages.json" with { type: "json" };

addCatalog("pages", { "zh-CN": zhPages, en: enPages });

export const meta: Route.MetaFunction = ({ location }) => pageMeta(location, "pages:app.title");

type Feature = { name: string; text: string };

export default function AppIntro() {
  const { t, i18n } = useTranslation("pages");
  const locale = i18n.language as Locale;
  const features = t("app.features", { returnObjects: true }) as Feature[];
  return (
    <article className="panel prose" aria-labelledby="app-title">
      <h1 id="app-title" className="page-title">
        {t("app.title")}
      </h1>
      <p>{t("app.intro")}</p>

      <section aria-labelledby="app-features">
        <h2 id="app-features">{t("app.features_heading")}</h2>
        <dl>
          {features.map((feature) => (
            <div key={feature.name}>
              <dt>
                <strong>{feature.name}</strong>
              </dt>
              <dd>{feature.text}</dd>
            </div>
          ))}
        </dl>
      </section>

      <p className="muted">{t("app.status_text")}</p>
      <p>
        <Link to={localizePath("/app/download", locale)}>{t("app.download_link")}</Link>
      </p>
    </article>
  );
}
