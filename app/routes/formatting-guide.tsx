import { Link } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import type { Route } from "./+types/formatting-guide";
import { addCatalog, translator } from "../../common/i18n.ts";
import { localizePath, type Locale } from "../../common/locale.ts";
import { renderMarkdown } from "../../features/content/render.server.ts";
import { siteOwner } from "../../features/content/render-queue.ts";
import { getAppContext } from "../lib/context.server.ts";
import { pageMeta } from "../lib/meta.ts";
import { contentStylesheets, RenderedContent } from "../components/rendered-content.tsx";
import zhPages from "../../common/locales/zh-CN/pages.json" with { type: "json" };
import enPages from "../../common/locales/en/pages.json" with { type: "json" };

addCatalog("pages", { "zh-CN": zhPages, en: enPages });

export const links: Route.LinksFunction = () => contentStylesheets;

export const meta: Route.MetaFunction = ({ location }) => pageMeta(location, "pages:formatting.title");

type Sample = { title: string; markdown: string };

/** The samples never change while the process runs: each language is rendered once. */
const renderedGuides = new Map<Locale, Promise<Array<Sample & { html: string }>>>();

function renderGuide(locale: Locale) {
  let guide = renderedGuides.get(locale);
  if (!guide) {
    const samples = translator(locale)("pages:formatting.samples", { returnObjects: true }) as Sample[];
    guide = Promise.all(
      samples.map(async (sample) => ({ ...sample, html: (await renderMarkdown(sample.markdown, { locale, owner: siteOwner })).html })),
    );
    guide.catch(() => renderedGuides.delete(locale));
    renderedGuides.set(locale, guide);
  }
  return guide;
}

export async function loader({ context }: Route.LoaderArgs) {
  return { samples: await renderGuide(getAppContext(context).locale) };
}

export default function FormattingGuide({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("pages");
  return (
    <article className="panel formatting-guide" aria-labelledby="formatting-title">
      <p className="muted">
        <Link to={localizePath("/help", i18n.language as Locale)}>{t("help.title")}</Link>
      </p>
      <h1 id="formatting-title" className="page-title">
        {t("formatting.title")}
      </h1>
      <p className="prose">{t("formatting.intro")}</p>
      {loaderData.samples.map((sample, index) => (
        <section key={sample.title} className="formatting-sample" aria-labelledby={`formatting-sample-${index}`}>
          <h2 id={`formatting-sample-${index}`}>{sample.title}</h2>
          <div className="formatting-sample-pair">
            <figure>
              <figcaption className="muted">{t("formatting.source")}</figcaption>
              <pre className="formatting-source">
                <code>{sample.markdown}</code>
              </pre>
            </figure>
            <figure>
              <figcaption className="muted">{t("formatting.result")}</figcaption>
              <RenderedContent html={sample.html} />
            </figure>
          </div>
        </section>
      ))}
    </article>
  );
}
