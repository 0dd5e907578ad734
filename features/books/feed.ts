import { and, eq, inArray, isNull, sql, type SQL } from "drizzle-orm";
import type { Executor } from "../../server/db/client.ts";
import { bookChapters, books, subjectCounts, users } from "../../server/db/schema/index.ts";
import { afterCursor, authoredCandidates, followedUsers, joinedCircles } from "../feeds/conditions.ts";
import { inReadableCircles } from "../circles/access.server.ts";
import type { FeedMember, FeedScope } from "../feeds/registry.ts";
import type { FeedCard } from "../feeds/types.ts";
import { bookPath, chapterPath } from "./presenter.ts";

/*
 * Books and their new chapters in the home feeds (features/feeds). A book appears when it is
 * created (Latest, All, Follow) and on Hot by its stored score (`books.hot_score`, the same
 * function as writings'); each new chapter appears when it is published (Latest, All, Follow).
 */

const excerptOf = (text: string) => (text.length > 120 ? `${text.slice(0, 119)}…` : text);
const author = { id: users.id, username: users.username, nickname: users.nickname, avatar: users.avatar };

/** Index ranges: `books_time_idx`, `books_hot_idx`; Follow: `books_author_time_idx` per followed author, `books_circle_time_idx` per joined circle. */
function bookCandidates(scope: FeedScope): SQL {
  const hot = scope.tab === "hot";
  const where = and(
    inReadableCircles(books.circleId, scope.circles),
    // Hidden by moderation: out of every list until restored.
    isNull(books.hiddenAt),
    afterCursor("book", { time: books.createdAt, score: books.hotScore, id: books.id }, scope.cursor, hot),
  );
  return authoredCandidates({
    kind: "book",
    table: books,
    columns: { id: books.id, at: books.createdAt, score: books.hotScore, authorId: books.authorId, circleId: books.circleId },
    where,
    scope,
  });
}

/** Index ranges: `book_chapters_time_idx`; Follow: `book_chapters_book_time_idx` per book of a followed author or joined circle. */
function chapterCandidates(scope: FeedScope): SQL {
  const after = afterCursor("chapter", { time: bookChapters.createdAt, score: sql`0::float8`, id: bookChapters.id }, scope.cursor, false);
  const select = sql`select 'chapter'::text as kind, ${bookChapters.id} as id, ${bookChapters.createdAt} as at, 0::float8 as score from ${bookChapters}`;
  const order = sql`${bookChapters.createdAt} desc, ${bookChapters.id} desc`;
  if (scope.followerId === null) {
    const where = and(
      sql`${bookChapters.bookId} in (select ${books.id} from ${books} where ${inReadableCircles(books.circleId, scope.circles)} and ${books.hiddenAt} is null)`,
      isNull(bookChapters.hiddenAt),
      after,
    );
    return sql`(${select} where ${where} order by ${order} limit ${scope.limit})`;
  }
  // The books of followed authors and joined circles (index look-ups by author and by circle), then each one's newest chapters.
  const followedBooks = sql`select ${books.id} from ${books}
      where ${books.authorId} = any(array(${followedUsers(scope.followerId)})) and ${inReadableCircles(books.circleId, scope.circles)} and ${books.hiddenAt} is null
    union
    select ${books.id} from ${books}
      where ${books.circleId} = any(array(${joinedCircles(scope.followerId)})) and ${inReadableCircles(books.circleId, scope.circles)} and ${books.hiddenAt} is null`;
  return sql`(select 'chapter'::text as kind, followed.id, followed.at, 0::float8 as score from (
    select picked.* from unnest(array(${followedBooks})) as followed(book)
    cross join lateral (
      select ${bookChapters.id} as id, ${bookChapters.createdAt} as at from ${bookChapters}
      where ${bookChapters.bookId} = followed.book and ${bookChapters.hiddenAt} is null and ${after ?? sql`true`}
      order by ${order}
      limit ${scope.limit}
    ) as picked
  ) as followed order by followed.at desc, followed.id desc limit ${scope.limit})`;
}

const likesOf = (type: "book" | "chapter", id: SQL | typeof books.id) =>
  sql<number>`coalesce((select ${subjectCounts.likeCount} from ${subjectCounts} where ${subjectCounts.subjectType} = ${type} and ${subjectCounts.subjectId} = ${id}), 0)`.mapWith(
    Number,
  );

async function bookCards(db: Executor, ids: number[]): Promise<Map<number, FeedCard>> {
  const rows = await db
    .select({ book: books, author, likes: likesOf("book", books.id) })
    .from(books)
    .innerJoin(users, eq(users.id, books.authorId))
    .where(inArray(books.id, ids));
  return new Map(
    rows.map(({ book, author, likes }): [number, FeedCard] => [
      book.id,
      {
        key: `book-${book.id}`,
        kind: "book",
        id: book.id,
        label: "book",
        title: book.name,
        path: bookPath(book),
        excerpt: excerptOf(book.description),
        language: null,
        coverFileId: book.coverFileId,
        author,
        circleId: book.circleId,
        at: book.createdAt.toISOString(),
        views: book.views,
        comments: null,
        likes,
        partNumber: null,
        bookName: book.name,
        chapterNumber: null,
      },
    ]),
  );
}

async function chapterCards(db: Executor, ids: number[]): Promise<Map<number, FeedCard>> {
  const rows = await db
    .select({
      chapter: { id: bookChapters.id, number: bookChapters.number, title: bookChapters.title, createdAt: bookChapters.createdAt },
      book: { id: books.id, circleId: books.circleId, name: books.name, coverFileId: books.coverFileId, views: books.views },
      author,
      likes: likesOf("chapter", sql`${bookChapters.id}`),
    })
    .from(bookChapters)
    .innerJoin(books, eq(books.id, bookChapters.bookId))
    .innerJoin(users, eq(users.id, books.authorId))
    .where(inArray(bookChapters.id, ids));
  return new Map(
    rows.map(({ chapter, book, author, likes }): [number, FeedCard] => [
      chapter.id,
      {
        key: `chapter-${chapter.id}`,
        kind: "chapter",
        id: chapter.id,
        label: "chapter",
        title: chapter.title,
        path: chapterPath(book, chapter.id),
        excerpt: "",
        language: null,
        coverFileId: book.coverFileId,
        author,
        circleId: book.circleId,
        at: chapter.createdAt.toISOString(),
        views: book.views,
        comments: null,
        likes,
        partNumber: null,
        bookName: book.name,
        chapterNumber: chapter.number,
      },
    ]),
  );
}

/** The `feed` members of the book and chapter registrations (subject.ts). */
export const bookFeed: FeedMember = { tabs: ["latest", "hot", "all", "follow"], candidates: bookCandidates, cards: bookCards };
export const chapterFeed: FeedMember = { tabs: ["latest", "all", "follow"], candidates: chapterCandidates, cards: chapterCards };
