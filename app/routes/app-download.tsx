import { Link } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import type { Route } from "./+types/app-download";
import { addCatalog } from "../../common/i18n.ts";
import { localizePath, type Locale } from "../../common/locale.ts";
import { pageMeta } from "../lib/meta.ts";
import zhPages from "../../common/locales/zh-CN/pages.json" with { type: "json" };
import enPages from "../../common/locales/en/pages.json" with { type: "json" };

addCatalog("pages", { "zh-CN": zhPages, en: enPages });

export const meta: Route.MetaFunction = ({ location }) => pageMeta(location, "pages:app_download.title");

type Platform = { name: string; status: string };

export default function AppDownload() {
  const { t, i18n } = useTranslation("pages");
  const locale = i18n.language as Locale;
  const platforms = t("app_download.platforms", { returnObjects: true }) as Platform[];
  const steps = (key: string) => (
    <ol>
      {(t(`app_download.${key}`, { returnObjects: true }) as string[]).map((step) => (
        <li key={step}>{step}</li>
      ))}
    </ol>
  );
  return (
    <article className="panel prose" aria-labelledby="app-download-title">
      <h1 id="app-download-title" className="page-title">
        {t("app_download.title")}
      </h1>

      <section aria-labelledby="app-download-status">
        <h2 id="app-download-status">{t("app_download.status_heading")}</h2>
        <p>{t("app_download.status_text")}</p>
        <dl>
          {platforms.map((platform) => (
            <div key={platform.name}>
              <dt>
                <strong>{platform.name}</strong>
              </dt>
              <dd className="muted">{platform.status}</dd>
            </div>
          ))}
        </dl>
      </section>

      <section aria-labelledby="app-download-web">
        <h2 id="app-download-web">{t("app_download.web_heading")}</h2>
        <p>{t("app_download.web_text")}</p>
        <h3>{t("app_download.ios_heading")}</h3>
        {steps("ios_steps")}
        <h3>{t("app_download.android_heading")}</h3>
        {steps("android_steps")}
      </section>

      <p>
        <Link to={localizePath("/app", locale)}>{t("app_download.app_link")}</Link>
      </p>
    </article>
  );
}
