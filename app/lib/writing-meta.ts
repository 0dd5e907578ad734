import { getI18n } from "../../common/i18n.ts";
import { localeFromPath, localizePath, type Locale } from "../../common/locale.ts";
import { writingPath } from "../../features/writings/paths.ts";
import type { PresentedWriting } from "../../features/writings/presenter.ts";

interface MetaData {
  writing: PresentedWriting;
  origin: string;
}

/** Where a language version is canonical: its own page in the site's matching language. */
function versionUrl(origin: string, writing: { id: number; circle_id: number; type: PresentedWriting["type"] }, language: Locale): string {
  return origin + localizePath(writingPath({ id: writing.id, circleId: writing.circle_id, type: writing.type }), language);
}

/**
 * Title and description, the canonical URL, hreflang alternates between the writing's language
 * versions, Open Graph and a JSON-LD `Article`.
 */
export function writingMeta(location: { pathname: string }, loaderData: MetaData | undefined) {
  const locale = localeFromPath(location.pathname);
  const t = getI18n(locale).t;
  const siteName = t("common:site.name");
  if (!loaderData) return [{ title: `${t("common:error.not_found_title")} - ${siteName}` }];
  const { writing, origin } = loaderData;
  const canonical = versionUrl(origin, writing, writing.language);
  const alternates = writing.versions.map((version) => ({
    tagName: "link",
    rel: "alternate",
    hrefLang: version.language,
    href: versionUrl(origin, { ...writing, id: version.id }, version.language),
  }));
  const image = writing.cover_url ? origin + writing.cover_url : undefined;
  return [
    { title: `${writing.title} - ${siteName}` },
    { name: "description", content: writing.excerpt || writing.title },
    { tagName: "link", rel: "canonical", href: canonical },
    ...alternates,
    { property: "og:type", content: "article" },
    { property: "og:title", content: writing.title },
    { property: "og:description", content: writing.excerpt || writing.title },
    { property: "og:url", content: canonical },
    { property: "og:site_name", content: siteName },
    { property: "og:locale", content: writing.language === "en" ? "en_US" : "zh_CN" },
    ...(image ? [{ property: "og:image", content: image }] : []),
    { property: "article:published_time", content: writing.published_at },
    ...(writing.edited_at ? [{ property: "article:modified_time", content: writing.edited_at }] : []),
    {
      "script:ld+json": {
        "@context": "https://schema.org",
        "@type": "Article",
        headline: writing.title,
        description: writing.excerpt,
        inLanguage: writing.language,
        datePublished: writing.published_at,
        dateModified: writing.edited_at ?? writing.published_at,
        author: writing.author
          ? { "@type": "Person", name: writing.author.nickname, url: origin + `/profile/${writing.author.username}` }
          : undefined,
        image,
        wordCount: writing.text_length,
        mainEntityOfPage: canonical,
      },
    },
  ];
}
