import { count, inArray } from "drizzle-orm";
import { encyclopediaEntries } from "../../server/db/schema/index.ts";
import { commentsTag, contentTag, countsTag } from "../../server/lib/cache-tags.ts";
import { registerSubject } from "../subjects/registry.ts";
import { entryPath } from "./paths.ts";
import { loadReadableEntry } from "./service.ts";

registerSubject({
  type: "entry",
  commentable: true,
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
    };
  },
  async countCircleContent(db, circleIds) {
    const rows = await db
      .select({ circleId: encyclopediaEntries.circleId, total: count() })
      .from(encyclopediaEntries)
      .where(inArray(encyclopediaEntries.circleId, circleIds))
      .groupBy(encyclopediaEntries.circleId);
    return new Map(rows.map((row) => [row.circleId, { entries: Number(row.total) }]));
  },
});
