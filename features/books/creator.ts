import { sql } from "drizzle-orm";
import { creatorAfterCursor, creatorTitleLike, type CreatorDeskMember } from "../creator/content.ts";
import { deleteBook } from "./service.ts";
import { bookPath } from "./presenter.ts";

/**
 * Books on the creator's desk (features/creator/content.ts), by `books_author_time_idx`. The
 * `creatorDesk` member of the book registration (subject.ts).
 */
export const bookCreatorDesk: CreatorDeskMember = {
  kinds: ["book"],
  rows: (filter) => sql`(
    select 'book'::text as type, 'book'::text as kind, b.id, b.circle_id, b.name as title, b.state as status, b.views,
      b.comment_count as comments, b.created_at as at
    from books b
    where b.author_id = ${filter.authorId}
      and ${creatorTitleLike("b.name", filter)}
      and ${creatorAfterCursor("book", sql`b.created_at`, sql`b.id`, filter.cursor)}
    order by b.created_at desc, b.id desc
    limit ${filter.limit})`,
  paths: (row) => ({ path: bookPath(row), editPath: `/circles/${row.circleId}/write/book/${row.id}` }),
  remove: (options, viewer, id) => deleteBook(options, viewer, id),
};
