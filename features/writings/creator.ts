import { sql } from "drizzle-orm";
import { creatorAfterCursor, creatorTitleLike, type CreatorDeskMember } from "../creator/content.ts";
import { deleteWriting } from "./service.ts";
import { editorPath, writingPath } from "./paths.ts";
import type { WritingType } from "./schema.ts";

/**
 * Writings on the creator's desk (features/creator/content.ts): first language versions (one row
 * per group, as every list), by `writings_author_list_idx`. The `creatorDesk` member of the writing
 * registration (subject.ts).
 */
export const writingCreatorDesk: CreatorDeskMember = {
  kinds: ["article", "serial", "post"],
  rows: (filter) => sql`(
    select 'writing'::text as type, w.type as kind, w.id, w.circle_id, w.title, 'published'::text as status, w.views,
      w.comment_count as comments, w.published_at as at
    from writings w
    where w.author_id = ${filter.authorId} and w.translation_of is null
      and w.type in (${sql.join(
        filter.kinds.map((kind) => sql`${kind}`),
        sql`, `,
      )})
      and ${creatorTitleLike("w.title", filter)}
      and ${creatorAfterCursor("writing", sql`w.published_at`, sql`w.id`, filter.cursor)}
    order by w.published_at desc, w.id desc
    limit ${filter.limit})`,
  paths: (row) => {
    const writing = { id: row.id, circleId: row.circleId, type: row.kind as WritingType };
    return { path: writingPath(writing), editPath: `${editorPath(row.circleId, writing.type)}?edit=${row.id}` };
  },
  remove: (options, viewer, id) => deleteWriting(options, viewer, id),
};
