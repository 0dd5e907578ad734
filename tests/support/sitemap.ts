/**
 * The whole sitemap as one text: the index at `/sitemap.xml` (or `indexPath`), then every paged
 * sitemap it lists, each fetched with `get(path)`. Tests look for a page's `<loc>` in it.
 */
export async function wholeSitemap(get: (path: string) => Promise<string>, indexPath = "/sitemap.xml"): Promise<string> {
  const index = await get(indexPath);
  const files = [...index.matchAll(/<sitemap><loc>([^<]+)<\/loc><\/sitemap>/g)].map(
    (match) => new URL(match[1]!.replace(/&amp;/g, "&")).pathname,
  );
  const pages = await Promise.all(files.map((file) => get(file)));
  return pages.join("\n");
}
