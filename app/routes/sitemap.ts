import type { Route } from "./+types/sitemap";
import { getAppContext, tagPage } from "../lib/context.server.ts";
import { localizePath, locales } from "../../common/locale.ts";
import { readableCircleIds, visibleCircleIds } from "../../features/circles/access.server.ts";
import { listBooksForSitemap } from "../../features/books/service.ts";
import { sitemapWritings } from "../../features/writings/queries.ts";
import { writingPath } from "../../features/writings/paths.ts";
import { sitemapEntries } from "../../features/encyclopedia/service.ts";
import { entryPath } from "../../features/encyclopedia/paths.ts";
import { sitemapTag } from "../../server/lib/cache-tags.ts";

const staticPaths = ["/", "/circles", "/about", "/about/privacy", "/help", "/help/formatting", "/app", "/app/download"];

/** Both languages of every public page, with hreflang alternates; circles only where visitors may see them. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const app = getAppContext(context);
  tagPage(app, sitemapTag);
  const origin = new URL(request.url).origin;
  const circlePaths = (await visibleCircleIds(app.db, null)).sort((a, b) => a - b).map((id) => `/circles/${id}`);
  // Books and their chapters where visitors may read them.
  const readable = await readableCircleIds(app.db, null);
  const bookPaths = (await listBooksForSitemap(app.db, readable)).flatMap((book) => {
    const path = `/circles/${book.circleId}/books/${book.id}`;
    return [path, ...book.chapterIds.map((chapterId) => `${path}/chapters/${chapterId}`)];
  });
  const escape = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;");
  const urls = [...staticPaths, ...circlePaths, ...bookPaths].flatMap((path) =>
    locales.map((locale) => {
      const alternates = locales
        .map((other) => `<xhtml:link rel="alternate" hreflang="${other}" href="${escape(origin + localizePath(path, other))}"/>`)
        .join("");
      return `<url><loc>${escape(origin + localizePath(path, locale))}</loc>${alternates}</url>`;
    }),
  );
  // Each writing version once, under the site language matching its own, with its other versions as alternates.
  const writingRows = await sitemapWritings(app.db);
  const groups = new Map<number, typeof writingRows>();
  for (const row of writingRows) groups.set(row.translationOf ?? row.id, [...(groups.get(row.translationOf ?? row.id) ?? []), row]);
  const writingUrl = (row: (typeof writingRows)[number]) => escape(origin + localizePath(writingPath(row), row.language));
  for (const row of writingRows) {
    const versions = groups.get(row.translationOf ?? row.id) ?? [row];
    const alternates =
      versions.length > 1
        ? versions.map((version) => `<xhtml:link rel="alternate" hreflang="${version.language}" href="${writingUrl(version)}"/>`).join("")
        : "";
    urls.push(`<url><loc>${writingUrl(row)}</loc><lastmod>${(row.editedAt ?? row.publishedAt).toISOString()}</lastmod>${alternates}</url>`);
  }
  // Each entry once, under the site language matching its own (the full encyclopedia adds language versions).
  for (const entry of await sitemapEntries(app.db, readable)) {
    urls.push(
      `<url><loc>${escape(origin + localizePath(entryPath(entry), entry.language))}</loc><lastmod>${entry.updatedAt.toISOString()}</lastmod></url>`,
    );
  }
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n${urls.join("\n")}\n</urlset>\n`;
  return new Response(body, { headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=3600" } });
}
