import { and, asc, gt, inArray, isNull } from "drizzle-orm";
import { encyclopediaEntries } from "../../server/db/schema/index.ts";
import { plainText, reindexOn, type SearchMember } from "../search/registry.ts";
import { entryPath } from "./paths.ts";

/** Encyclopedia entries (each language version) in the search index: their aliases are synonyms of their name. */
export const entrySearch: SearchMember = {
  tabOrder: 6,
  suggested: true,
  reindex: [reindexOn(["entry.created", "entry.edited"])],
  teachesWords: true,
  async documents(db, ids) {
    const rows = await db
      .select()
      .from(encyclopediaEntries)
      .where(and(inArray(encyclopediaEntries.id, ids), isNull(encyclopediaEntries.hiddenAt)));
    return rows.map((row) => ({
      type: "entry" as const,
      id: row.id,
      circleId: row.circleId,
      parentId: null,
      language: row.language,
      title: row.name,
      path: entryPath(row),
      names: row.aliases,
      relatedEntryIds: [],
      body: plainText(`${row.disambiguation ?? ""} ${row.description}`),
      authorId: row.creatorId,
      publishedAt: row.createdAt,
      hotScore: Math.log1p(row.views + row.citeCount * 5),
    }));
  },
  async ids(db, afterId, limit) {
    const rows = await db
      .select({ id: encyclopediaEntries.id })
      .from(encyclopediaEntries)
      .where(gt(encyclopediaEntries.id, afterId))
      .orderBy(asc(encyclopediaEntries.id))
      .limit(limit);
    return rows.map((row) => row.id);
  },
};
