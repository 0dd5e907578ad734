import { useTranslation } from "../lib/i18n.tsx";
import type { Route } from "./+types/privacy";
import { addCatalog } from "../../common/i18n.ts";
import { pageMeta } from "../lib/meta.ts";
import zhPages from "../../common/locales/zh-CN/pages.json" with { type: "json" };
import enPages from "../../common/locales/en/pages.json" with { type: "json" };

addCatalog("pages", { "zh-CN": zhPages, en: enPages });

export const meta: Route.MetaFunction = ({ location }) => pageMeta(location, "pages:privacy.title");

const contactEmail = "support@circles.example";

export default function PrivacyPolicy() {
  const { t } = useTranslation("pages");
  const list = (key: string) => (
    <ul>
      {(t(`privacy.${key}`, { returnObjects: true }) as string[]).map((item) => (
        <li key={item}>{item}</li>
      ))}
    </ul>
  );
  const mail = <a href={`mailto:${contactEmail}`}>{contactEmail}</a>;
  return (
    <article className="panel prose" aria-labelledby="privacy-title">
      <h1 id="privacy-title" className="page-title">
        {t("privacy.title")}
      </h1>
      <p className="muted">{t("privacy.effective")}</p>
      <p>{t("privacy.intro")}</p>

      <section aria-labelledby="privacy-collect">
        <h2 id="privacy-collect">{t("privacy.collect_heading")}</h2>
        <p>{t("privacy.collect_intro")}</p>
        {list("collect_items")}
        <p>{t("privacy.content_text")}</p>
      </section>

      <section aria-labelledby="privacy-cookies">
        <h2 id="privacy-cookies">{t("privacy.cookies_heading")}</h2>
        <p>{t("privacy.cookies_intro")}</p>
        {list("cookies_items")}
        <p>{t("privacy.cookies_note")}</p>
      </section>

      <section aria-labelledby="privacy-use">
        <h2 id="privacy-use">{t("privacy.use_heading")}</h2>
        {list("use_items")}
      </section>

      <section aria-labelledby="privacy-not">
        <h2 id="privacy-not">{t("privacy.not_heading")}</h2>
        {list("not_items")}
      </section>

      <section aria-labelledby="privacy-retention">
        <h2 id="privacy-retention">{t("privacy.retention_heading")}</h2>
        <p>{t("privacy.retention_text")}</p>
      </section>

      <section aria-labelledby="privacy-rights">
        <h2 id="privacy-rights">{t("privacy.rights_heading")}</h2>
        <p>{t("privacy.rights_intro")}</p>
        {list("rights_items")}
        <p>{t("privacy.rights_contact")}</p>
      </section>

      <section aria-labelledby="privacy-security">
        <h2 id="privacy-security">{t("privacy.security_heading")}</h2>
        <p>{t("privacy.security_text")}</p>
      </section>

      <section aria-labelledby="privacy-changes">
        <h2 id="privacy-changes">{t("privacy.changes_heading")}</h2>
        <p>{t("privacy.changes_text")}</p>
      </section>

      <section aria-labelledby="privacy-contact">
        <h2 id="privacy-contact">{t("privacy.contact_heading")}</h2>
        <p>
          {t("privacy.contact_text")} {mail}
        </p>
      </section>
    </article>
  );
}
