import type { SitemapMember } from "../subjects/sitemap.ts";
import { countSitemapQuestions, sitemapQuestions } from "./service.ts";
import { questionPath } from "./paths.ts";

/** Questions in the sitemap, under the language each was asked in. */
export const questionSitemap: SitemapMember = {
  section: "questions",
  count: (db, readable) => countSitemapQuestions(db, readable),
  async urls(db, readable, range) {
    return (await sitemapQuestions(db, readable, range)).map((row) => ({
      path: questionPath(row),
      locale: row.language,
      lastmod: row.editedAt ?? row.publishedAt,
    }));
  },
};
