import { and, asc, gt, inArray, isNull } from "drizzle-orm";
import { writings } from "../../server/db/schema/index.ts";
import { plainText, reindexOn, type SearchMember } from "../search/registry.ts";
import { writingPath } from "./paths.ts";
import { splitPaywall } from "../paywall/split.ts";

/** Writings (articles, serials, posts; every language version) in the search index. */
export const writingSearch: SearchMember = {
  tabOrder: 1,
  suggested: true,
  inSiteFeeds: true,
  reindex: [reindexOn(["writing.published", "writing.edited"])],
  async documents(db, ids) {
    const rows = await db
      .select()
      .from(writings)
      .where(and(inArray(writings.id, ids), isNull(writings.hiddenAt)));
    return rows.map((row) => ({
      type: "writing" as const,
      id: row.id,
      circleId: row.circleId,
      parentId: null,
      language: row.language,
      title: row.title,
      path: row.translationOf ? writingPath({ ...row, id: row.translationOf }, row.language) : writingPath(row),
      names: [],
      relatedEntryIds: row.relatedEntryIds,
      // Pay-to-view: only the free part is searchable (and shown in snippets).
      body: plainText(`${row.summary} ${splitPaywall(row.markdown, row.payToViewPrice).free}`),
      authorId: row.authorId,
      publishedAt: row.publishedAt,
      hotScore: row.hotScore,
    }));
  },
  async ids(db, afterId, limit) {
    const rows = await db.select({ id: writings.id }).from(writings).where(gt(writings.id, afterId)).orderBy(asc(writings.id)).limit(limit);
    return rows.map((row) => row.id);
  },
};
