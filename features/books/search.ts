import { and, asc, eq, gt, inArray, isNull } from "drizzle-orm";
import { bookChapters, books } from "../../server/db/schema/index.ts";
import { plainText, reindexOn, type SearchMember } from "../search/registry.ts";
import { bookPath, chapterPath } from "./presenter.ts";

/** Books and their chapters in the search index (a hidden book hides its chapters from search too). */
export const bookSearch: SearchMember = {
  tabOrder: 2,
  suggested: true,
  inSiteFeeds: true,
  reindex: [reindexOn(["book.created", "book.updated", "book.completed", "book.resumed"])],
  async documents(db, ids) {
    const rows = await db
      .select()
      .from(books)
      .where(and(inArray(books.id, ids), isNull(books.hiddenAt)));
    return rows.map((row) => ({
      type: "book" as const,
      id: row.id,
      circleId: row.circleId,
      parentId: null,
      language: null,
      title: row.name,
      path: bookPath(row),
      names: [],
      relatedEntryIds: [],
      body: plainText(row.description),
      authorId: row.authorId,
      publishedAt: row.createdAt,
      hotScore: row.hotScore,
    }));
  },
  async children(db, id) {
    const rows = await db.select({ id: bookChapters.id }).from(bookChapters).where(eq(bookChapters.bookId, id));
    return { type: "chapter", ids: rows.map((row) => row.id) };
  },
  async ids(db, afterId, limit) {
    const rows = await db.select({ id: books.id }).from(books).where(gt(books.id, afterId)).orderBy(asc(books.id)).limit(limit);
    return rows.map((row) => row.id);
  },
};

export const chapterSearch: SearchMember = {
  tabOrder: 3,
  reindex: [reindexOn(["book.chapter_added", "book.chapter_updated"], (event) => event.data.chapterId)],
  parent: "book",
  async documents(db, ids) {
    const rows = await db
      .select({ chapter: bookChapters, book: books })
      .from(bookChapters)
      .innerJoin(books, eq(books.id, bookChapters.bookId))
      .where(and(inArray(bookChapters.id, ids), isNull(bookChapters.hiddenAt), isNull(books.hiddenAt)));
    return rows.map(({ chapter, book }) => ({
      type: "chapter" as const,
      id: chapter.id,
      circleId: book.circleId,
      parentId: book.id,
      language: null,
      title: chapter.title,
      path: chapterPath(book, chapter.id),
      names: [],
      relatedEntryIds: [],
      body: plainText(chapter.markdown),
      authorId: book.authorId,
      publishedAt: chapter.createdAt,
      hotScore: book.hotScore,
    }));
  },
  async ids(db, afterId, limit) {
    const rows = await db
      .select({ id: bookChapters.id })
      .from(bookChapters)
      .where(gt(bookChapters.id, afterId))
      .orderBy(asc(bookChapters.id))
      .limit(limit);
    return rows.map((row) => row.id);
  },
};
