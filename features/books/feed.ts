import { and, desc, eq, gt, inArray, isNull, lte, type SQL } from "drizzle-orm";
import type { Executor } from "../../server/db/client.ts";
import { bookChapters, books, users } from "../../server/db/schema/index.ts";
import type { Viewer } from "../accounts/viewer.ts";
import { readableCircleIds } from "../circles/access.server.ts";
import type { AuthorCard } from "../writings/queries.ts";
import { bookPath, chapterPath } from "./presenter.ts";

/** A new book or a new chapter as the home feed shows it beside writings. */
export interface BookFeedItem {
  kind: "book" | "chapter";
  /** The book's id, or the chapter's. */
  id: number;
  circleId: number;
  bookId: number;
  bookName: string;
  /** The book's name, or the chapter's title. */
  title: string;
  /** The book's description (chapters: none; their text is read on their page). */
  excerpt: string;
  chapterNumber: number | null;
  coverFileId: string | null;
  views: number;
  author: AuthorCard;
  path: string;
  /** When the book was created or the chapter published (ISO). */
  at: string;
}

export interface BookFeedWindow {
  /** Only items after this time (exclusive); none: from the beginning. */
  after?: Date | null;
  /** Only items up to this time (inclusive); none: up to now. */
  upTo?: Date | null;
  limit?: number;
}

const excerptOf = (text: string) => (text.length > 120 ? `${text.slice(0, 119)}…` : text);

/**
 * New books and new chapters in circles the viewer may read, newest first, within a time window:
 * the home feed merges them into the page of writings that covers the same time span.
 */
export async function listBookFeed(db: Executor, viewer: Viewer | null, window: BookFeedWindow = {}): Promise<BookFeedItem[]> {
  const circleIds = await readableCircleIds(db, viewer);
  if (circleIds.length === 0) return [];
  const limit = Math.min(Math.max(window.limit ?? 10, 1), 50);
  const within = (column: typeof books.createdAt | typeof bookChapters.createdAt): SQL[] => [
    ...(window.after ? [gt(column, window.after)] : []),
    ...(window.upTo ? [lte(column, window.upTo)] : []),
  ];
  const author = { id: users.id, username: users.username, nickname: users.nickname, avatar: users.avatar };
  const [bookRows, chapterRows] = await Promise.all([
    db
      .select({ book: books, author })
      .from(books)
      .innerJoin(users, eq(users.id, books.authorId))
      .where(and(inArray(books.circleId, circleIds), isNull(books.hiddenAt), ...within(books.createdAt)))
      .orderBy(desc(books.createdAt), desc(books.id))
      .limit(limit),
    db
      .select({
        chapter: { id: bookChapters.id, number: bookChapters.number, title: bookChapters.title, createdAt: bookChapters.createdAt },
        book: books,
        author,
      })
      .from(bookChapters)
      .innerJoin(books, eq(books.id, bookChapters.bookId))
      .innerJoin(users, eq(users.id, books.authorId))
      .where(
        and(inArray(books.circleId, circleIds), isNull(books.hiddenAt), isNull(bookChapters.hiddenAt), ...within(bookChapters.createdAt)),
      )
      .orderBy(desc(bookChapters.createdAt), desc(bookChapters.id))
      .limit(limit),
  ]);
  const items: BookFeedItem[] = [
    ...bookRows.map(({ book, author }) => ({
      kind: "book" as const,
      id: book.id,
      circleId: book.circleId,
      bookId: book.id,
      bookName: book.name,
      title: book.name,
      excerpt: excerptOf(book.description),
      chapterNumber: null,
      coverFileId: book.coverFileId,
      views: book.views,
      author,
      path: bookPath(book),
      at: book.createdAt.toISOString(),
    })),
    ...chapterRows.map(({ chapter, book, author }) => ({
      kind: "chapter" as const,
      id: chapter.id,
      circleId: book.circleId,
      bookId: book.id,
      bookName: book.name,
      title: chapter.title,
      excerpt: "",
      chapterNumber: chapter.number,
      coverFileId: book.coverFileId,
      views: book.views,
      author,
      path: chapterPath(book, chapter.id),
      at: chapter.createdAt.toISOString(),
    })),
  ];
  return items.sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0)).slice(0, limit);
}
