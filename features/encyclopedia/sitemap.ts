import type { SitemapMember } from "../subjects/sitemap.ts";
import { countSitemapEntries, sitemapEntries } from "./service.ts";
import { entryPath } from "./paths.ts";

/** Entries in the sitemap, each version under its own language. */
export const entrySitemap: SitemapMember = {
  section: "entries",
  count: (db, readable) => countSitemapEntries(db, readable),
  async urls(db, readable, range) {
    return (await sitemapEntries(db, readable, range)).map((entry) => ({
      path: entryPath(entry),
      locale: entry.language,
      lastmod: entry.updatedAt,
    }));
  },
};
