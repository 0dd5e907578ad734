import { count, eq, inArray, sql, type SQL } from "drizzle-orm";
import { bookCategories, bookChapters, books } from "../../server/db/schema/index.ts";
import { AppError } from "../../common/app-error.ts";
import { commentsTag, contentTag, countsTag } from "../../server/lib/cache-tags.ts";
import { registerSubject } from "../subjects/registry.ts";
import { bookPath, chapterPath } from "./presenter.ts";
import { loadBook } from "./service.ts";

registerSubject({
  type: "book",
  commentable: true,
  async load(db, viewer, id) {
    const { row, resource } = await loadBook(db, viewer, id);
    return {
      type: "book",
      id: row.id,
      authorId: row.authorId,
      access: resource.circle,
      title: row.name,
      path: bookPath(row),
      tags: { content: [contentTag("book", row.id)], counts: [countsTag("book", row.id)], comments: [commentsTag("book", row.id)] },
    };
  },
  async countCircleContent(db, circleIds) {
    const rows = await db
      .select({ circleId: books.circleId, total: count() })
      .from(books)
      .where(inArray(books.circleId, circleIds))
      .groupBy(books.circleId);
    return new Map(rows.map((row) => [row.circleId, { books: Number(row.total) }]));
  },
  async usesCategory(db, categoryId) {
    const [filed] = await db
      .select({ bookId: bookCategories.bookId })
      .from(bookCategories)
      .where(eq(bookCategories.categoryId, categoryId))
      .limit(1);
    return filed !== undefined;
  },
  referencesAttachment: (fileId: SQL) => sql`exists (select 1 from books b where b.cover_file_id = ${fileId})`,
  async children(tx, ids) {
    const chapters = await tx.db.select({ id: bookChapters.id }).from(bookChapters).where(inArray(bookChapters.bookId, ids));
    return [{ type: "chapter", ids: chapters.map((chapter) => chapter.id) }];
  },
});

registerSubject({
  type: "chapter",
  commentable: true,
  async load(db, viewer, id) {
    const [chapter] = await db
      .select({ id: bookChapters.id, bookId: bookChapters.bookId, title: bookChapters.title })
      .from(bookChapters)
      .where(eq(bookChapters.id, id))
      .limit(1);
    if (!chapter) throw new AppError("not_found");
    const { row, resource } = await loadBook(db, viewer, chapter.bookId);
    return {
      type: "chapter",
      id: chapter.id,
      authorId: row.authorId,
      access: resource.circle,
      title: chapter.title,
      path: chapterPath(row, chapter.id),
      // A chapter is shown on its book's pages (its table of contents).
      tags: {
        content: [contentTag("book", row.id)],
        counts: [countsTag("chapter", chapter.id)],
        comments: [commentsTag("chapter", chapter.id)],
      },
    };
  },
});
