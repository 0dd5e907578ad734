import type { ReactNode } from "react";
import { Link } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import type { Route } from "./+types/help";
import { addCatalog } from "../../common/i18n.ts";
import { localizePath, type Locale } from "../../common/locale.ts";
import { pageMeta } from "../lib/meta.ts";
import zhPages from "../../common/locales/zh-CN/pages.json" with { type: "json" };
import enPages from "../../common/locales/en/pages.json" with { type: "json" };

addCatalog("pages", { "zh-CN": zhPages, en: enPages });

export const meta: Route.MetaFunction = ({ location }) => pageMeta(location, "pages:help.title");

const contactEmail = "support@circles.example";

type Faq = { q: string; a: string };

export default function HelpCentre() {
  const { t, i18n } = useTranslation("pages");
  const locale = i18n.language as Locale;
  const link = (path: string, key: string) => <Link to={localizePath(path, locale)}>{t(key)}</Link>;
  return (
    <article className="panel prose" aria-labelledby="help-title">
      <h1 id="help-title" className="page-title">
        {t("help.title")}
      </h1>
      <p>{t("help.intro")}</p>

      <FaqSection id="account">
        <p>
          {link("/register", "help.account.register_link")} · {link("/login", "help.account.login_link")}
        </p>
      </FaqSection>
      <FaqSection id="circles">
        <p>{link("/circles", "help.circles.circles_link")}</p>
      </FaqSection>
      <FaqSection id="language" />
      <FaqSection id="writing">
        <p>{link("/help/formatting", "help.writing.formatting_link")}</p>
      </FaqSection>

      <section aria-labelledby="help-contact">
        <h2 id="help-contact">{t("help.contact.heading")}</h2>
        <p>
          {t("help.contact.text")} <a href={`mailto:${contactEmail}`}>{contactEmail}</a>
        </p>
        <p>
          {t("help.contact.privacy_text")} {link("/about/privacy", "help.contact.privacy_link")}
        </p>
      </section>
    </article>
  );
}

/** One FAQ group: a heading, then each question as an h3 with its answer. */
function FaqSection({ id, children }: { id: "account" | "circles" | "language" | "writing"; children?: ReactNode }) {
  const { t } = useTranslation("pages");
  const faq = t(`help.${id}.faq`, { returnObjects: true }) as Faq[];
  return (
    <section aria-labelledby={`help-${id}`}>
      <h2 id={`help-${id}`}>{t(`help.${id}.heading`)}</h2>
      {faq.map((item) => (
        <div key={item.q}>
          <h3>{item.q}</h3>
          <p>{item.a}</p>
        </div>
      ))}
      {children}
    </section>
  );
}
