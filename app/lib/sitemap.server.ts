import type { Executor } from "../../server/db/client.ts";
import { localizePath, locales } from "../../common/locale.ts";
import { readableCircleIds, visibleCircleIds } from "../../features/circles/access.server.ts";
import { listBooksForSitemap } from "../../features/books/service.ts";
import { countSitemapWritings, sitemapWritings, type SitemapWriting } from "../../features/writings/queries.ts";
import { writingPath } from "../../features/writings/paths.ts";
import { countSitemapEntries, sitemapEntries } from "../../features/encyclopedia/service.ts";
import { entryPath } from "../../features/encyclopedia/paths.ts";
import { countSitemapQuestions, sitemapQuestions } from "../../features/questions/service.ts";
import { questionPath } from "../../features/questions/paths.ts";

/**
 * The sitemap as an index (`/sitemap.xml`) of paged sitemaps (`/sitemap/<section>-<n>.xml`):
 * `pages` (the fixed pages and the circles visitors may see), `books` (books and chapters),
 * `writings` (each version once, under the site language of its own, with its group's versions
 * as alternates), `entries` and `questions` (under the language each was asked in). A page holds at most `sitemapPageSize` URLs (the protocol allows
 * 50,000; 10,000 keeps each document near 2 MB). Writing and entry pages are read as ranges of
 * the database; every document is an anonymous page, so the page cache keeps it under
 * `sitemapTag` until a write changes what visitors may read.
 */
export const sitemapPageSize = 10_000;

export const sitemapSections = ["pages", "books", "writings", "entries", "questions"] as const;
export type SitemapSection = (typeof sitemapSections)[number];

const staticPaths = [
  "/",
  "/circles",
  "/about",
  "/about/privacy",
  "/help",
  "/help/formatting",
  "/app",
  "/app/download",
  "/shop",
  "/contact",
  "/feedback",
];

const escape = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;");

/** A path in both languages, each with both as alternates. */
function bothLanguages(origin: string, path: string): string[] {
  return locales.map((locale) => {
    const alternates = locales
      .map((other) => `<xhtml:link rel="alternate" hreflang="${other}" href="${escape(origin + localizePath(path, other))}"/>`)
      .join("");
    return `<url><loc>${escape(origin + localizePath(path, locale))}</loc>${alternates}</url>`;
  });
}

async function pagePaths(db: Executor): Promise<string[]> {
  const circlePaths = (await visibleCircleIds(db, null)).sort((a, b) => a - b).map((id) => `/circles/${id}`);
  return [...staticPaths, ...circlePaths];
}

async function bookPaths(db: Executor): Promise<string[]> {
  return (await listBooksForSitemap(db, await readableCircleIds(db, null))).flatMap((book) => {
    const path = `/circles/${book.circleId}/books/${book.id}`;
    return [path, ...book.chapterIds.map((chapterId) => `${path}/chapters/${chapterId}`)];
  });
}

/** How many URLs each section holds. */
async function sectionSizes(db: Executor): Promise<Record<SitemapSection, number>> {
  const readable = await readableCircleIds(db, null);
  const [pages, books, writings, entries, questions] = await Promise.all([
    pagePaths(db),
    bookPaths(db),
    countSitemapWritings(db),
    countSitemapEntries(db, readable),
    countSitemapQuestions(db, readable),
  ]);
  return { pages: pages.length * locales.length, books: books.length * locales.length, writings, entries, questions };
}

/** The paged sitemaps that exist now, as `<section>-<n>` (a section without URLs has none). */
export async function sitemapFiles(db: Executor, pageSize = sitemapPageSize): Promise<string[]> {
  const sizes = await sectionSizes(db);
  return sitemapSections.flatMap((section) =>
    Array.from({ length: Math.ceil(sizes[section] / pageSize) }, (_, index) => `${section}-${index + 1}`),
  );
}

export function sitemapIndexXml(origin: string, files: string[]): string {
  const entries = files.map((file) => `<sitemap><loc>${escape(`${origin}/sitemap/${file}.xml`)}</loc></sitemap>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${entries.join("\n")}\n</sitemapindex>\n`;
}

export function urlsetXml(urls: string[]): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n${urls.join("\n")}\n</urlset>\n`;
}

/** `writings-3` → the section and page number, or null when it names no section. */
export function parseSitemapFile(file: string): { section: SitemapSection; page: number } | null {
  const match = /^(pages|books|writings|entries|questions)-([1-9]\d{0,5})$/.exec(file);
  return match ? { section: match[1] as SitemapSection, page: Number(match[2]) } : null;
}

/** The `<url>` elements of one paged sitemap; null past the section's last page. */
export async function sitemapUrls(
  db: Executor,
  origin: string,
  section: SitemapSection,
  page: number,
  pageSize = sitemapPageSize,
): Promise<string[] | null> {
  let urls: string[];
  if (section === "pages" || section === "books") {
    // Every path in both languages: small enough to build whole and slice.
    const paths = section === "pages" ? await pagePaths(db) : await bookPaths(db);
    urls = paths.flatMap((path) => bothLanguages(origin, path)).slice((page - 1) * pageSize, page * pageSize);
  } else if (section === "writings") {
    const rows = await sitemapWritings(db, { offset: (page - 1) * pageSize, limit: pageSize });
    const writingUrl = (row: SitemapWriting) => escape(origin + localizePath(writingPath(row), row.language));
    urls = rows.map(({ row, versions }) => {
      const alternates =
        versions.length > 1
          ? versions.map((version) => `<xhtml:link rel="alternate" hreflang="${version.language}" href="${writingUrl(version)}"/>`).join("")
          : "";
      return `<url><loc>${writingUrl(row)}</loc><lastmod>${(row.editedAt ?? row.publishedAt).toISOString()}</lastmod>${alternates}</url>`;
    });
  } else if (section === "questions") {
    const rows = await sitemapQuestions(db, await readableCircleIds(db, null), { offset: (page - 1) * pageSize, limit: pageSize });
    urls = rows.map(
      (row) =>
        `<url><loc>${escape(origin + localizePath(questionPath(row), row.language))}</loc><lastmod>${(row.editedAt ?? row.publishedAt).toISOString()}</lastmod></url>`,
    );
  } else {
    const rows = await sitemapEntries(db, await readableCircleIds(db, null), { offset: (page - 1) * pageSize, limit: pageSize });
    urls = rows.map(
      (entry) =>
        `<url><loc>${escape(origin + localizePath(entryPath(entry), entry.language))}</loc><lastmod>${entry.updatedAt.toISOString()}</lastmod></url>`,
    );
  }
  return urls.length === 0 && page > 1 ? null : urls;
}
