import { asc, gt, inArray } from "drizzle-orm";
import { circles } from "../../server/db/schema/index.ts";
import { plainText, reindexOn, type SearchMember } from "../search/registry.ts";

/** Circles in the search index by both names; found by whoever may see the circle listed. */
export const circleSearch: SearchMember = {
  tabOrder: 7,
  suggested: true,
  reindex: [reindexOn(["circle.created", "circle.updated"])],
  teachesWords: true,
  async documents(db, ids) {
    const rows = await db.select().from(circles).where(inArray(circles.id, ids));
    return rows.map((row) => ({
      type: "circle" as const,
      id: row.id,
      circleId: row.id,
      parentId: row.parentId,
      language: null,
      title: row.nameZh || row.nameEn,
      path: `/circles/${row.id}`,
      names: [row.nameEn].filter((name) => name && name !== row.nameZh),
      relatedEntryIds: [],
      body: plainText(`${row.descriptionZh} ${row.descriptionEn}`),
      authorId: row.createdBy,
      publishedAt: row.createdAt,
      hotScore: 0,
    }));
  },
  async ids(db, afterId, limit) {
    const rows = await db.select({ id: circles.id }).from(circles).where(gt(circles.id, afterId)).orderBy(asc(circles.id)).limit(limit);
    return rows.map((row) => row.id);
  },
};
