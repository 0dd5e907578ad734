import { localizePath, type Locale } from "../../common/locale.ts";
import { pageMeta } from "./meta.ts";

/** A description fit for a meta tag: one line, at most 160 characters. */
export function metaDescription(text: string): string | undefined {
  const line = text.replace(/\s+/g, " ").trim();
  if (!line) return undefined;
  return line.length > 160 ? `${line.slice(0, 159)}…` : line;
}

/**
 * The meta of a reading page: title and description, hreflang alternates (pageMeta), the canonical
 * URL in the page's language and the item's JSON-LD.
 */
export function readingMeta(
  location: { pathname: string },
  title: string,
  description: string | undefined,
  canonical: { origin: string; path: string; locale: Locale },
  jsonLd: Record<string, unknown>,
) {
  return [
    ...pageMeta(location, () => title, description),
    { tagName: "link", rel: "canonical", href: canonical.origin + localizePath(canonical.path, canonical.locale) },
    { property: "og:title", content: title },
    ...(description ? [{ property: "og:description", content: description }] : []),
    { property: "og:url", content: canonical.origin + localizePath(canonical.path, canonical.locale) },
    { "script:ld+json": { "@context": "https://schema.org", ...jsonLd } },
  ];
}
