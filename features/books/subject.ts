import { and, count, eq, inArray, isNull, sql, type SQL } from "drizzle-orm";
import { bookCategories, bookChapters, books } from "../../server/db/schema/index.ts";
import { AppError } from "../../common/app-error.ts";
import { circlesTag, commentsTag, contentTag, countsTag, subjectPageTags, userTag } from "../../server/lib/cache-tags.ts";
import { registerSubject } from "../subjects/registry.ts";
import { bookPath, chapterPath } from "./presenter.ts";
import { bookTags, loadBook, removeBook } from "./service.ts";
import { removeChapter } from "./chapters.ts";
import { assertNotHidden } from "../reports/visibility.ts";
import { bookFeed, chapterFeed } from "./feed.ts";
import { bookSearch, chapterSearch } from "./search.ts";
import { bookCreatorDesk } from "./creator.ts";
import { viewsColumn } from "../metrics/views.ts";
import { bookSitemap } from "./sitemap.ts";
import { bookHot } from "./hot.ts";
import { bookCircleTabs } from "./circle-tab.ts";

registerSubject({
  type: "book",
  circleTabs: bookCircleTabs,
  authorSql: (id) => `SELECT author_id FROM books WHERE id = ${id}`,
  feed: bookFeed,
  search: bookSearch,
  creatorDesk: bookCreatorDesk,
  views: viewsColumn(books, books.id, books.views),
  sitemap: bookSitemap,
  activity: {
    verb: "book.created",
    async load(db, ids) {
      const rows = await db
        .select({ id: books.id, circleId: books.circleId, name: books.name })
        .from(books)
        .where(and(inArray(books.id, ids), isNull(books.hiddenAt)));
      return rows.map((row) => ({ id: row.id, circleId: row.circleId, title: row.name, path: bookPath(row), language: null }));
    },
  },
  hot: bookHot,
  interactions: { reactions: true, favorites: true, shares: true, reports: true, tips: true, pins: true },
  commentable: true,
  authoredBy: (authorId) => sql`select b.id, b.name as title from books b where b.author_id = ${authorId}`,
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
      editedAt: row.updatedAt,
      hiddenAt: row.hiddenAt,
    };
  },
  async setHidden(tx, id, hiddenAt) {
    const [row] = await tx.db.update(books).set({ hiddenAt }).where(eq(books.id, id)).returning();
    return row ? [...bookTags(row), circlesTag, userTag(row.authorId)] : [];
  },
  async remove(tx, id, actorId) {
    const [row] = await tx.db.select().from(books).where(eq(books.id, id)).limit(1);
    if (row) await removeBook(tx, row, actorId);
  },
  circleContent: {
    counts: ["books"],
    async count(db, circleIds) {
      const rows = await db
        .select({ circleId: books.circleId, total: count() })
        .from(books)
        .where(and(inArray(books.circleId, circleIds), isNull(books.hiddenAt)))
        .groupBy(books.circleId);
      return new Map(rows.map((row) => [row.circleId, { books: Number(row.total) }]));
    },
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
  authorSql: (id) => `SELECT b.author_id FROM book_chapters c JOIN books b ON b.id = c.book_id WHERE c.id = ${id}`,
  interactions: { reactions: true, favorites: true, shares: true, reports: true },
  feed: chapterFeed,
  search: chapterSearch,
  commentable: true,
  authoredBy: (authorId) =>
    sql`select ch.id, ch.title from book_chapters ch join books b on b.id = ch.book_id where b.author_id = ${authorId}`,
  async load(db, viewer, id) {
    const [chapter] = await db
      .select({
        id: bookChapters.id,
        bookId: bookChapters.bookId,
        title: bookChapters.title,
        updatedAt: bookChapters.updatedAt,
        hiddenAt: bookChapters.hiddenAt,
      })
      .from(bookChapters)
      .where(eq(bookChapters.id, id))
      .limit(1);
    if (!chapter) throw new AppError("not_found");
    const { row, resource } = await loadBook(db, viewer, chapter.bookId);
    await assertNotHidden(db, viewer, { hiddenAt: chapter.hiddenAt, authorId: row.authorId, circleId: row.circleId });
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
      editedAt: chapter.updatedAt,
      hiddenAt: chapter.hiddenAt,
    };
  },
  async setHidden(tx, id, hiddenAt) {
    const [chapter] = await tx.db.update(bookChapters).set({ hiddenAt }).where(eq(bookChapters.id, id)).returning();
    if (!chapter) return [];
    const [book] = await tx.db.select({ id: books.id, circleId: books.circleId }).from(books).where(eq(books.id, chapter.bookId));
    return book ? [...bookTags(book), ...subjectPageTags("chapter", id)] : [];
  },
  async remove(tx, id, actorId) {
    const [chapter] = await tx.db.select().from(bookChapters).where(eq(bookChapters.id, id)).limit(1);
    if (!chapter) return;
    const [book] = await tx.db.select({ id: books.id, circleId: books.circleId }).from(books).where(eq(books.id, chapter.bookId));
    if (book) await removeChapter(tx, book, chapter, actorId);
  },
});
