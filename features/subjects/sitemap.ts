import type { Executor } from "../../server/db/client.ts";
import { locales, type Locale } from "../../common/locale.ts";

/**
 * A kind's pages in the sitemap (its registration's `sitemap`): one section of paged sitemaps
 * (`/sitemap/<section>-<n>.xml`, app/lib/sitemap.server.ts renders them). Only what a visitor may
 * read is listed: the circles in `readableCircleIds`, nothing hidden.
 */
export interface SitemapMember {
  /** The section's name in the file names (lower-case letters). */
  section: string;
  /** How many `<url>` elements the section holds (a page listed in both languages is two). */
  count(db: Executor, readableCircleIds: number[]): Promise<number>;
  /** The section's URLs from `offset`, at most `limit`, in a stable order. */
  urls(db: Executor, readableCircleIds: number[], range: { offset: number; limit: number }): Promise<SitemapUrl[]>;
}

/** One `<url>`: its page in one language, when it last changed, and its other language versions. */
export interface SitemapUrl {
  /** Without the language prefix: the renderer localizes it into `locale`. */
  path: string;
  locale: Locale;
  lastmod?: Date;
  /** Every language version of the page, this one included (`hreflang` alternates); none when it has one language. */
  alternates?: { locale: Locale; path: string }[];
}

/** A page shown in both languages: one URL per language, each with both as alternates. */
export function bothLanguageUrls(path: string): SitemapUrl[] {
  const alternates = locales.map((locale) => ({ locale, path }));
  return locales.map((locale) => ({ path, locale, alternates }));
}
