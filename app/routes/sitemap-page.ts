import type { Route } from "./+types/sitemap-page";
import { getAppContext, tagPage } from "../lib/context.server.ts";
import { parseSitemapFile, sitemapUrls, urlsetXml } from "../lib/sitemap.server.ts";
import { sitemapTag } from "../../server/lib/cache-tags.ts";

/** One paged sitemap of the index (`/sitemap/writings-2.xml`); a page past a section's end is 404. */
export async function loader({ context, params, request }: Route.LoaderArgs) {
  const app = getAppContext(context);
  const file = /^(.+)\.xml$/.exec(params.file)?.[1];
  const parsed = file ? parseSitemapFile(file) : null;
  const missing = () => new Response("Not Found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  if (!parsed) return missing();
  tagPage(app, sitemapTag);
  const origin = new URL(request.url).origin;
  const urls = await sitemapUrls(app.db, origin, parsed.section, parsed.page);
  if (!urls) return missing();
  return new Response(urlsetXml(urls), {
    headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
