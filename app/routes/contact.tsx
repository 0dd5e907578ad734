import { Link } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import type { Route } from "./+types/contact";
import { localizePath, type Locale } from "../../common/locale.ts";
import { pageMeta } from "../lib/meta.ts";
import "../lib/site-pages-catalog.ts";

export const meta: Route.MetaFunction = ({ location }) => pageMeta(location, "sitepages:contact.title");

/** Where each kind of question goes; the addresses are the site's own mailboxes. */
const mailboxes = [
  { key: "general", address: "hello@circles.example" },
  { key: "support", address: "support@circles.example" },
  { key: "privacy", address: "privacy@circles.example" },
] as const;

/** `/contact`: how to reach the people behind the site; static, so visitors get it from the page cache. */
export default function Contact() {
  const { t, i18n } = useTranslation("sitepages");
  const locale = i18n.language as Locale;
  return (
    <article className="panel prose" aria-labelledby="contact-title">
      <h1 id="contact-title" className="page-title">
        {t("contact.title")}
      </h1>
      <p>{t("contact.intro")}</p>
      <section aria-labelledby="contact-email">
        <h2 id="contact-email">{t("contact.email_heading")}</h2>
        <dl>
          {mailboxes.map((mailbox) => (
            <div key={mailbox.key}>
              <dt>{t(`contact.${mailbox.key}`)}</dt>
              <dd>
                <a href={`mailto:${mailbox.address}`}>{mailbox.address}</a>
              </dd>
            </div>
          ))}
        </dl>
        <p>{t("contact.response")}</p>
      </section>
      <section aria-labelledby="contact-feedback">
        <h2 id="contact-feedback">{t("contact.feedback_heading")}</h2>
        <p>{t("contact.feedback_text")}</p>
        <p>
          <Link to={localizePath("/feedback", locale)}>{t("contact.feedback_link")}</Link>
        </p>
      </section>
      <section aria-labelledby="contact-links">
        <h2 id="contact-links">{t("contact.links_heading")}</h2>
        <p>{t("contact.links_text")}</p>
        <p>
          <Link to={localizePath("/link", locale)}>{t("contact.links_link")}</Link>
        </p>
      </section>
    </article>
  );
}
