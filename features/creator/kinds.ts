import { sql } from "drizzle-orm";
import { deleteBook } from "../books/service.ts";
import { bookPath } from "../books/presenter.ts";
import { deleteWriting } from "../writings/service.ts";
import { editorPath, writingPath } from "../writings/paths.ts";
import type { WritingType } from "../writings/schema.ts";
import { creatorAfterCursor, registerCreatorContentKind, type CreatorKindFilter } from "./content.ts";

/*
 * The kinds on the creator's desk (features/creator/content.ts). Writings: first language versions
 * (one row per group, as every list), by `writings_author_list_idx`; books by `books_author_time_idx`.
 */

const titleLike = (column: string, filter: CreatorKindFilter) =>
  filter.like === null ? sql`true` : sql`lower(${sql.raw(column)}) like ${filter.like} escape '\\'`;

registerCreatorContentKind({
  type: "writing",
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
      and ${titleLike("w.title", filter)}
      and ${creatorAfterCursor("writing", sql`w.published_at`, sql`w.id`, filter.cursor)}
    order by w.published_at desc, w.id desc
    limit ${filter.limit})`,
  paths: (row) => {
    const writing = { id: row.id, circleId: row.circleId, type: row.kind as WritingType };
    return { path: writingPath(writing), editPath: `${editorPath(row.circleId, writing.type)}?edit=${row.id}` };
  },
  remove: (options, viewer, id) => deleteWriting(options, viewer, id),
});

registerCreatorContentKind({
  type: "book",
  kinds: ["book"],
  rows: (filter) => sql`(
    select 'book'::text as type, 'book'::text as kind, b.id, b.circle_id, b.name as title, b.state as status, b.views,
      b.comment_count as comments, b.created_at as at
    from books b
    where b.author_id = ${filter.authorId}
      and ${titleLike("b.name", filter)}
      and ${creatorAfterCursor("book", sql`b.created_at`, sql`b.id`, filter.cursor)}
    order by b.created_at desc, b.id desc
    limit ${filter.limit})`,
  paths: (row) => ({ path: bookPath(row), editPath: `/circles/${row.circleId}/write/book/${row.id}` }),
  remove: (options, viewer, id) => deleteBook(options, viewer, id),
});
