import { Link } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import type { Route } from "./+types/about";
import { addCatalog } from "../../common/i18n.ts";
import { localizePath, type Locale } from "../../common/locale.ts";
import { pageMeta } from "../lib/meta.ts";
import zhPages from "../../common/locales/zh-CN/pages.json" with { type: "json" };
import enPages from "../../common/locales/en/pages.json" with { type: "json" };

addCatalog("pages", { "zh-CN": zhPages, en: enPages });

export const meta: Route.MetaFunction = ({ location }) => pageMeta(location, "pages:about.title");

const contactEmail = "support@circles.example";

type Principle = { name: string; text: string };

export default function About() {
  const { t, i18n } = useTranslation("pages");
  const locale = i18n.language as Locale;
  const circles = t("about.circles_list", { returnObjects: true }) as string[];
  const features = t("about.features", { returnObjects: true }) as string[];
  const principles = t("about.principles", { returnObjects: true }) as Principle[];
  return (
    <article className="panel prose" aria-labelledby="about-title">
      <h1 id="about-title" className="page-title">
        {t("about.title")}
      </h1>
      <p>{t("about.intro")}</p>

      <section aria-labelledby="about-circles">
        <h2 id="about-circles">{t("about.circles_heading")}</h2>
        <p>{t("about.circles_text")}</p>
        <ul>
          {circles.map((circle) => (
            <li key={circle}>{circle}</li>
          ))}
        </ul>
        <p>
          <Link to={localizePath("/circles", locale)}>{t("about.circles_link")}</Link>
        </p>
      </section>

      <section aria-labelledby="about-features">
        <h2 id="about-features">{t("about.features_heading")}</h2>
        <ul>
          {features.map((feature) => (
            <li key={feature}>{feature}</li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="about-principles">
        <h2 id="about-principles">{t("about.principles_heading")}</h2>
        <dl>
          {principles.map((principle) => (
            <div key={principle.name}>
              <dt>
                <strong>{principle.name}</strong>
              </dt>
              <dd>{principle.text}</dd>
            </div>
          ))}
        </dl>
      </section>

      <section aria-labelledby="about-contact">
        <h2 id="about-contact">{t("about.contact_heading")}</h2>
        <p>
          {t("about.contact_text")} <a href={`mailto:${contactEmail}`}>{contactEmail}</a>
        </p>
      </section>

      <section aria-labelledby="about-more">
        <h2 id="about-more">{t("about.more_heading")}</h2>
        <ul>
          <li>
            <Link to={localizePath("/help", locale)}>{t("about.help_link")}</Link>
          </li>
          <li>
            <Link to={localizePath("/about/privacy", locale)}>{t("about.privacy_link")}</Link>
          </li>
        </ul>
      </section>
    </article>
  );
}
