import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { encyclopediaEntries } from "../../server/db/schema/index.ts";
import { circleTag, commentsTag, contentTag, countsTag, homeTag, sitemapTag, userTag } from "../../server/lib/cache-tags.ts";
import { registerSubject } from "../subjects/registry.ts";
import { entryPath } from "./paths.ts";
import { loadReadableEntry } from "./service.ts";
import { entrySearch } from "./search.ts";
import { viewsColumn } from "../metrics/views.ts";
import { entrySitemap } from "./sitemap.ts";
import { entryCircleTabs } from "./circle-tab.ts";

registerSubject({
  type: "entry",
  circleTabs: entryCircleTabs,
  citesEntries: true,
  authorSql: (id) => `SELECT creator_id FROM encyclopedia_entries WHERE id = ${id}`,
  interactions: { reactions: true, favorites: true, shares: true, reports: true },
  search: entrySearch,
  views: viewsColumn(encyclopediaEntries, encyclopediaEntries.id, encyclopediaEntries.views),
  sitemap: entrySitemap,
  activity: {
    verb: "entry.created",
    async load(db, ids) {
      const rows = await db
        .select({
          id: encyclopediaEntries.id,
          circleId: encyclopediaEntries.circleId,
          name: encyclopediaEntries.name,
          language: encyclopediaEntries.language,
        })
        .from(encyclopediaEntries)
        .where(and(inArray(encyclopediaEntries.id, ids), isNull(encyclopediaEntries.hiddenAt)));
      return rows.map((row) => ({ id: row.id, circleId: row.circleId, title: row.name, path: entryPath(row), language: row.language }));
    },
  },
  commentable: true,
  authoredBy: (authorId) => sql`select e.id, e.name as title from encyclopedia_entries e where e.creator_id = ${authorId}`,
  async load(db, viewer, id) {
    const { row, access } = await loadReadableEntry(db, viewer, id);
    return {
      type: "entry",
      id: row.id,
      authorId: row.creatorId,
      access,
      title: row.name,
      path: entryPath(row),
      tags: { content: [contentTag("entry", row.id)], counts: [countsTag("entry", row.id)], comments: [commentsTag("entry", row.id)] },
      editedAt: row.updatedAt,
      hiddenAt: row.hiddenAt,
    };
  },
  async setHidden(tx, id, hiddenAt) {
    const [row] = await tx.db.update(encyclopediaEntries).set({ hiddenAt }).where(eq(encyclopediaEntries.id, id)).returning();
    return row ? [contentTag("entry", row.id), circleTag(row.circleId), userTag(row.creatorId), homeTag, sitemapTag] : [];
  },
  circleContent: {
    counts: ["entries"],
    async count(db, circleIds) {
      const rows = await db
        // Language versions of one entry count once, as on the wiki home.
        .select({
          circleId: encyclopediaEntries.circleId,
          total: sql<number>`count(distinct coalesce(${encyclopediaEntries.translationOf}, ${encyclopediaEntries.id}))`,
        })
        .from(encyclopediaEntries)
        .where(and(inArray(encyclopediaEntries.circleId, circleIds), isNull(encyclopediaEntries.hiddenAt)))
        .groupBy(encyclopediaEntries.circleId);
      return new Map(rows.map((row) => [row.circleId, { entries: Number(row.total) }]));
    },
  },
});
