import type { SitemapMember } from "../subjects/sitemap.ts";
import { countSitemapWritings, sitemapWritings } from "./queries.ts";
import { writingPath } from "./paths.ts";

/** Writings in the sitemap: each version once, under its own language, with its group's versions as alternates. */
export const writingSitemap: SitemapMember = {
  section: "writings",
  count: (db) => countSitemapWritings(db),
  async urls(db, _readable, range) {
    return (await sitemapWritings(db, range)).map(({ row, versions }) => ({
      path: writingPath(row),
      locale: row.language,
      lastmod: row.editedAt ?? row.publishedAt,
      alternates: versions.length > 1 ? versions.map((version) => ({ locale: version.language, path: writingPath(version) })) : undefined,
    }));
  },
};
