import { locales } from "../../common/locale.ts";
import type { Executor } from "../../server/db/client.ts";
import { bothLanguageUrls, type SitemapMember } from "../subjects/sitemap.ts";
import { listBooksForSitemap } from "./service.ts";

async function bookPaths(db: Executor, readableCircleIds: number[]): Promise<string[]> {
  return (await listBooksForSitemap(db, readableCircleIds)).flatMap((book) => {
    const path = `/circles/${book.circleId}/books/${book.id}`;
    return [path, ...book.chapterIds.map((chapterId) => `${path}/chapters/${chapterId}`)];
  });
}

/** Books and their chapters in the sitemap, each in both languages (small enough to build whole and slice). */
export const bookSitemap: SitemapMember = {
  section: "books",
  count: async (db, readable) => (await bookPaths(db, readable)).length * locales.length,
  async urls(db, readable, { offset, limit }) {
    return (await bookPaths(db, readable)).flatMap(bothLanguageUrls).slice(offset, offset + limit);
  },
};
