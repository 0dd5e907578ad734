import type { Executor } from "../../server/db/client.ts";
import { localizePath } from "../../common/locale.ts";
import { readableCircleIds, visibleCircleIds } from "../../features/circles/access.server.ts";
import { kindsWith } from "../../features/subjects/registry.ts";
import { bothLanguageUrls, type SitemapUrl } from "../../features/subjects/sitemap.ts";

/**
 * The sitemap as an index (`/sitemap.xml`) of paged sitemaps (`/sitemap/<section>-<n>.xml`):
 * `pages` (the fixed pages and the circles visitors may see, in both languages), then one section
 * per kind that declares `sitemap` in its registration (features/subjects/sitemap.ts: writings,
 * books with their chapters, entries, questions, each under its own language with its versions as
 * alternates). A page holds at most `sitemapPageSize` URLs (the protocol allows 50,000; 10,000
 * keeps each document near 2 MB). Kinds read their pages as ranges of the database; every document
 * is an anonymous page, so the page cache keeps it under `sitemapTag` until a write changes what
 * visitors may read.
 */
export const sitemapPageSize = 10_000;

/** Every section, `pages` first, then the registered kinds' in registration order. */
export function sitemapSections(): string[] {
  return ["pages", ...kindsWith("sitemap").map((kind) => kind.sitemap.section)];
}
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

/** One `<url>` element: its address, when it last changed, its language versions. */
function urlXml(origin: string, url: SitemapUrl): string {
  const href = (path: string, locale: SitemapUrl["locale"]) => escape(origin + localizePath(path, locale));
  const lastmod = url.lastmod ? `<lastmod>${url.lastmod.toISOString()}</lastmod>` : "";
  const alternates = (url.alternates ?? [])
    .map((alternate) => `<xhtml:link rel="alternate" hreflang="${alternate.locale}" href="${href(alternate.path, alternate.locale)}"/>`)
    .join("");
  return `<url><loc>${href(url.path, url.locale)}</loc>${lastmod}${alternates}</url>`;
}

async function pagePaths(db: Executor): Promise<string[]> {
  const circlePaths = (await visibleCircleIds(db, null)).sort((a, b) => a - b).map((id) => `/circles/${id}`);
  return [...staticPaths, ...circlePaths];
}

/** How many URLs each section holds. */
async function sectionSizes(db: Executor): Promise<Map<string, number>> {
  const readable = await readableCircleIds(db, null);
  const kinds = kindsWith("sitemap");
  const sizes = await Promise.all([
    pagePaths(db).then((paths) => paths.flatMap(bothLanguageUrls).length),
    ...kinds.map((kind) => kind.sitemap.count(db, readable)),
  ]);
  return new Map(sitemapSections().map((section, index) => [section, sizes[index] ?? 0]));
}

/** The paged sitemaps that exist now, as `<section>-<n>` (a section without URLs has none). */
export async function sitemapFiles(db: Executor, pageSize = sitemapPageSize): Promise<string[]> {
  const sizes = await sectionSizes(db);
  return sitemapSections().flatMap((section) =>
    Array.from({ length: Math.ceil((sizes.get(section) ?? 0) / pageSize) }, (_, index) => `${section}-${index + 1}`),
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
export function parseSitemapFile(file: string): { section: string; page: number } | null {
  const match = /^([a-z]+)-([1-9]\d{0,5})$/.exec(file);
  return match && sitemapSections().includes(match[1]!) ? { section: match[1]!, page: Number(match[2]) } : null;
}

/** The `<url>` elements of one paged sitemap; null past the section's last page or for an unknown section. */
export async function sitemapUrls(
  db: Executor,
  origin: string,
  section: string,
  page: number,
  pageSize = sitemapPageSize,
): Promise<string[] | null> {
  const range = { offset: (page - 1) * pageSize, limit: pageSize };
  let urls: SitemapUrl[];
  if (section === "pages") {
    // Small enough to build whole and slice.
    urls = (await pagePaths(db)).flatMap(bothLanguageUrls).slice(range.offset, range.offset + range.limit);
  } else {
    const kind = kindsWith("sitemap").find((candidate) => candidate.sitemap.section === section);
    if (!kind) return null;
    urls = await kind.sitemap.urls(db, await readableCircleIds(db, null), range);
  }
  return urls.length === 0 && page > 1 ? null : urls.map((url) => urlXml(origin, url));
}
