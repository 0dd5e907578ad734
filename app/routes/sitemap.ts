import type { Route } from "./+types/sitemap";
import { getAppContext, tagPage } from "../lib/context.server.ts";
import { sitemapFiles, sitemapIndexXml } from "../lib/sitemap.server.ts";
import { sitemapTag } from "../../server/lib/cache-tags.ts";

/**
 * The sitemap index: one `<sitemap>` per paged sitemap (`/sitemap/<section>-<n>.xml`, see
 * app/lib/sitemap.server.ts), which list both languages of every public page with hreflang
 * alternates; circles, books, writings and entries only where visitors may see them.
 */
export async function loader({ context, request }: Route.LoaderArgs) {
  const app = getAppContext(context);
  tagPage(app, sitemapTag);
  const origin = new URL(request.url).origin;
  return new Response(sitemapIndexXml(origin, await sitemapFiles(app.db)), {
    headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
