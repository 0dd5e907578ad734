import { and, eq, inArray, isNull, sql, type SQL } from "drizzle-orm";
import { writingCategories, writings } from "../../server/db/schema/index.ts";
import { commentsTag, countsTag } from "../../server/lib/cache-tags.ts";
import type { CircleAccess } from "../circles/policy.ts";
import { registerSubject, type LoadedSubject } from "../subjects/registry.ts";
import { writingPath } from "./paths.ts";
import { loadReadableWriting, removeWriting, writingContentTags, writingTags, type WritingRow } from "./service.ts";
import { writingFeed } from "./feed.ts";
import { writingSearch } from "./search.ts";
import { writingCreatorDesk } from "./creator.ts";
import { viewsColumn } from "../metrics/views.ts";
import { writingSitemap } from "./sitemap.ts";
import { writingHot } from "./hot.ts";
import { writingCircleTabs } from "./circle-tab.ts";

/** A writing as a subject (the reading page builds it from what it already loaded). */
export function writingSubject(
  row: Pick<WritingRow, "id" | "authorId" | "title" | "circleId" | "type" | "translationOf" | "seriesId"> &
    Partial<Pick<WritingRow, "editedAt" | "hiddenAt">>,
  access: CircleAccess,
): LoadedSubject & { type: "writing" } {
  return {
    type: "writing",
    id: row.id,
    authorId: row.authorId,
    access,
    title: row.title,
    path: writingPath(row),
    tags: {
      // Its language versions and series parts show its title in their switchers and part lists.
      content: writingContentTags(row),
      counts: [countsTag("writing", row.id)],
      comments: [commentsTag("writing", row.id)],
    },
    editedAt: row.editedAt ?? null,
    hiddenAt: row.hiddenAt ?? null,
  };
}

registerSubject({
  type: "writing",
  circleTabs: writingCircleTabs,
  citesEntries: true,
  authorSql: (id) => `SELECT author_id FROM writings WHERE id = ${id}`,
  feed: writingFeed,
  search: writingSearch,
  creatorDesk: writingCreatorDesk,
  views: viewsColumn(writings, writings.id, writings.views),
  sitemap: writingSitemap,
  activity: {
    verb: "writing.published",
    async load(db, ids) {
      const rows = await db
        .select({ id: writings.id, circleId: writings.circleId, type: writings.type, title: writings.title, language: writings.language })
        .from(writings)
        .where(and(inArray(writings.id, ids), isNull(writings.hiddenAt)));
      return rows.map((row) => ({ id: row.id, circleId: row.circleId, title: row.title, path: writingPath(row), language: row.language }));
    },
  },
  hot: writingHot,
  interactions: {
    reactions: true,
    favorites: true,
    shares: true,
    reports: true,
    tips: true,
    // Its author may switch tips off (`tip_enabled`).
    async tipsSwitchedOn(db, id) {
      const [row] = await db.select({ tipEnabled: writings.tipEnabled }).from(writings).where(eq(writings.id, id));
      return row?.tipEnabled === true;
    },
    pins: true,
  },
  commentable: true,
  authoredBy: (authorId) => sql`select w.id, w.title from writings w where w.author_id = ${authorId}`,
  async load(db, viewer, id) {
    const { row, access } = await loadReadableWriting(db, viewer, id);
    return writingSubject(row, access);
  },
  circleContent: {
    counts: ["articles", "posts"],
    async count(db, circleIds) {
      // Language versions are one writing: only the first version of each group counts.
      const rows = await db
        .select({
          circleId: writings.circleId,
          articles: sql<number>`count(*) filter (where ${writings.type} <> 'post')`.mapWith(Number),
          posts: sql<number>`count(*) filter (where ${writings.type} = 'post')`.mapWith(Number),
        })
        .from(writings)
        .where(and(inArray(writings.circleId, circleIds), isNull(writings.translationOf), isNull(writings.hiddenAt)))
        .groupBy(writings.circleId);
      return new Map(rows.map((row) => [row.circleId, { articles: row.articles, posts: row.posts }]));
    },
  },
  async usesCategory(db, categoryId) {
    const [filed] = await db
      .select({ id: writingCategories.writingId })
      .from(writingCategories)
      .where(eq(writingCategories.categoryId, categoryId))
      .limit(1);
    return filed !== undefined;
  },
  async setHidden(tx, id, hiddenAt) {
    const [row] = await tx.db.update(writings).set({ hiddenAt }).where(eq(writings.id, id)).returning();
    return row ? writingTags(row) : [];
  },
  async remove(tx, id, actorId) {
    const [row] = await tx.db.select().from(writings).where(eq(writings.id, id)).limit(1);
    if (row) await removeWriting(tx, row, actorId);
  },
  // A draft keeps its cover too: the editor saved it before the writing exists.
  referencesAttachment: (fileId: SQL) =>
    sql`(exists (select 1 from writings w where w.cover_file_id = ${fileId}) or exists (select 1 from drafts d where d.fields ->> 'cover_file_id' = ${fileId}))`,
});
