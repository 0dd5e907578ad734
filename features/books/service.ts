import { and, asc, count, desc, eq, inArray, isNull, max } from "drizzle-orm";
import type { Executor } from "../../server/db/client.ts";
import { attachments, bookCategories, bookChapters, books, circleCategories, users } from "../../server/db/schema/index.ts";
import { AppError } from "../../common/app-error.ts";
import { authorize } from "../../common/policy.ts";
import { inTransaction, type ServiceOptions, type Transaction } from "../../server/lib/transactions.ts";
import type { Viewer } from "../accounts/viewer.ts";
import { requireCircle } from "../circles/access.server.ts";
import { can, canCreateBook, type BookResource } from "./policy.ts";
import { presentBookSummary, type BookRow, type BookSummary, type BookView, type ChapterListItem } from "./presenter.ts";
import type { CreateBookInput, UpdateBookInput } from "./schema.ts";
import { emit } from "../events/bus.ts";
import { deleteSubjectDependents } from "../subjects/registry.ts";
import { assertNotHidden } from "../reports/visibility.ts";
import { circleTag, circlesTag, contentTag, homeTag, sitemapTag } from "../../server/lib/cache-tags.ts";

export type { BookSummary, BookView, ChapterListItem } from "./presenter.ts";

/** Pages that show a book, and what changes with it: the book's, its circle's, the home feed, the sitemap. */
export function bookTags(book: { id: number; circleId: number }): string[] {
  return [contentTag("book", book.id), circleTag(book.circleId), homeTag, sitemapTag];
}

/**
 * The book and the viewer's standing, or the error its circle's guard gives: a book in a circle the
 * viewer may not see, or that does not exist, is a 404; one whose circle's content the viewer may
 * not read is a 401 for visitors and a 403 otherwise.
 */
export async function loadBook(
  db: Executor,
  viewer: Viewer | null,
  bookId: number,
  options: { lock?: boolean } = {},
): Promise<{ row: BookRow; resource: BookResource }> {
  const query = db.select().from(books).where(eq(books.id, bookId));
  const [row] = options.lock ? await query.for("update") : await query;
  if (!row) throw new AppError("not_found");
  const circle = await requireCircle(db, viewer, row.circleId, "read_content");
  await assertNotHidden(db, viewer, { hiddenAt: row.hiddenAt, authorId: row.authorId, circleId: row.circleId });
  return { row, resource: { authorId: row.authorId, circle } };
}

/** Categories must be the circle's own; an unknown one is the field's 400. */
async function assertCategoriesOfCircle(db: Executor, circleId: number, categoryIds: number[]): Promise<void> {
  if (categoryIds.length === 0) return;
  const rows = await db
    .select({ id: circleCategories.id })
    .from(circleCategories)
    .where(and(eq(circleCategories.circleId, circleId), inArray(circleCategories.id, categoryIds)));
  if (rows.length !== categoryIds.length)
    throw new AppError("validation_failed", { fields: { categories: "books:validation.category_unknown" } });
}

/** A cover must be an image its setter uploaded (nobody files someone else's upload under their book). */
async function assertOwnImage(db: Executor, actor: Viewer, fileId: string): Promise<void> {
  const [row] = await db
    .select({ ownerId: attachments.ownerId, contentType: attachments.contentType })
    .from(attachments)
    .where(eq(attachments.fileId, fileId));
  if (!row || row.ownerId !== actor.id || !row.contentType.startsWith("image/"))
    throw new AppError("validation_failed", { fields: { cover: "books:validation.cover_invalid" } });
}

async function setCategories(tx: Transaction, bookId: number, categoryIds: number[]): Promise<void> {
  await tx.db.delete(bookCategories).where(eq(bookCategories.bookId, bookId));
  if (categoryIds.length > 0) await tx.db.insert(bookCategories).values(categoryIds.map((categoryId) => ({ bookId, categoryId })));
}

/** A new book in a circle, in the `updating` state, with no chapters yet. */
export async function createBook(
  options: ServiceOptions,
  actor: Viewer,
  circleId: number,
  input: CreateBookInput,
): Promise<{ id: number; circleId: number }> {
  return inTransaction(options, async (tx) => {
    const access = await requireCircle(tx.db, actor, circleId, "view", { signedIn: true });
    authorize(actor, canCreateBook(actor, access));
    await assertCategoriesOfCircle(tx.db, circleId, input.categories);
    if (input.cover) await assertOwnImage(tx.db, actor, input.cover);
    const [row] = await tx.db
      .insert(books)
      .values({ circleId, authorId: actor.id, name: input.name, description: input.description, coverFileId: input.cover })
      .returning({ id: books.id });
    await setCategories(tx, row!.id, input.categories);
    await emit(tx, {
      actorId: actor.id,
      verb: "book.created",
      subjectId: row!.id,
      data: { circleId, name: input.name },
    });
    tx.invalidate(...bookTags({ id: row!.id, circleId }), circlesTag);
    return { id: row!.id, circleId };
  });
}

/**
 * Changes a book's texts, cover, categories and/or state (author or the circle's moderators).
 * Spec section 4: `updating` ↔ `completed`, each way at any time (the pages ask first).
 */
export async function updateBook(options: ServiceOptions, actor: Viewer, bookId: number, input: UpdateBookInput): Promise<void> {
  await inTransaction(options, async (tx) => {
    const { row, resource } = await loadBook(tx.db, actor, bookId, { lock: true });
    authorize(actor, can(actor, "edit", resource));
    if (input.categories) await assertCategoriesOfCircle(tx.db, row.circleId, input.categories);
    if (input.cover && input.cover !== row.coverFileId) await assertOwnImage(tx.db, actor, input.cover);
    const changes: Partial<typeof books.$inferInsert> = {};
    if (input.name !== undefined && input.name !== row.name) changes.name = input.name;
    if (input.description !== undefined && input.description !== row.description) changes.description = input.description;
    if (input.cover !== undefined && input.cover !== row.coverFileId) changes.coverFileId = input.cover;
    const stateChanged = input.state !== undefined && input.state !== row.state;
    if (stateChanged) changes.state = input.state;
    const changed = Object.keys(changes);
    if (input.categories) {
      await setCategories(tx, bookId, input.categories);
      changed.push("categories");
    }
    if (changed.length === 0) return;
    await tx.db
      .update(books)
      .set({ ...changes, updatedAt: new Date() })
      .where(eq(books.id, bookId));
    if (stateChanged) {
      await emit(tx, {
        actorId: actor.id,
        verb: input.state === "completed" ? "book.completed" : "book.resumed",
        subjectId: bookId,
        data: { circleId: row.circleId },
      });
    }
    const others = changed.filter((field) => field !== "state");
    if (others.length > 0)
      await emit(tx, {
        actorId: actor.id,
        verb: "book.updated",
        subjectId: bookId,
        data: { circleId: row.circleId, changed: others },
      });
    tx.invalidate(...bookTags(row));
  });
}

/** Deletes a book and its chapters for good (author or the circle's moderators). */
export async function deleteBook(options: ServiceOptions, actor: Viewer, bookId: number): Promise<{ circleId: number }> {
  return inTransaction(options, async (tx) => {
    const { row, resource } = await loadBook(tx.db, actor, bookId, { lock: true });
    authorize(actor, can(actor, "delete", resource));
    await removeBook(tx, row, actor.id);
    return { circleId: row.circleId };
  });
}

/** The deletion itself: `deleteBook` after its checks, and moderation decisions (the registry's `remove`). */
export async function removeBook(tx: Transaction, row: BookRow, actorId: number): Promise<void> {
  // Before the row goes: its chapters (deleted with it by the foreign key) are found through it.
  await deleteSubjectDependents(tx, "book", [row.id]);
  await tx.db.delete(books).where(eq(books.id, row.id));
  await emit(tx, {
    actorId,
    verb: "book.deleted",
    subjectId: row.id,
    data: { circleId: row.circleId, name: row.name },
  });
  tx.invalidate(...bookTags(row), circlesTag);
}

/** The numbered chapter list of a book (no texts). */
export async function listChapters(db: Executor, bookId: number, options: { includeHidden?: boolean } = {}): Promise<ChapterListItem[]> {
  const rows = await db
    .select({
      id: bookChapters.id,
      number: bookChapters.number,
      title: bookChapters.title,
      textLength: bookChapters.textLength,
      updatedAt: bookChapters.updatedAt,
    })
    .from(bookChapters)
    // Chapters hidden by moderation are listed to the book's author only.
    .where(and(eq(bookChapters.bookId, bookId), options.includeHidden ? undefined : isNull(bookChapters.hiddenAt)))
    .orderBy(asc(bookChapters.number));
  return rows.map((row) => ({ ...row, updatedAt: row.updatedAt.toISOString() }));
}

/** Everything a book's page shows, for a viewer who may read it (else the guard's 404/401/403). */
export async function getBook(db: Executor, viewer: Viewer | null, bookId: number): Promise<BookView> {
  const { row, resource } = await loadBook(db, viewer, bookId);
  const [author] = await db
    .select({ id: users.id, username: users.username, nickname: users.nickname, avatar: users.avatar })
    .from(users)
    .where(eq(users.id, row.authorId));
  const categories = await db
    .select({ id: circleCategories.id, name: circleCategories.name })
    .from(bookCategories)
    .innerJoin(circleCategories, eq(circleCategories.id, bookCategories.categoryId))
    .where(eq(bookCategories.bookId, bookId))
    .orderBy(asc(circleCategories.position), asc(circleCategories.id));
  const chapters = await listChapters(db, bookId, { includeHidden: viewer?.id === row.authorId });
  return {
    ...presentBookSummary(row, author!, chapters.length, chapters.at(-1) ?? null),
    categories,
    chapters,
    can: { edit: can(viewer, "edit", resource), delete: can(viewer, "delete", resource) },
  };
}

export const booksPerPage = 12;

/** A circle's books, most recently updated first, `booksPerPage` a page. The caller checks the viewer may read the circle. */
export async function listCircleBooks(
  db: Executor,
  circleId: number,
  page = 1,
  sort: "latest" | "hot" = "latest",
): Promise<{ books: BookSummary[]; page: number; pageCount: number; total: number }> {
  // Hot: the stored score (`books.hot_score`), the same time-decayed engagement as writings' (docs/features/interactions.md).
  const listed = and(eq(books.circleId, circleId), isNull(books.hiddenAt));
  const [totalRow] = await db.select({ total: count() }).from(books).where(listed);
  const total = Number(totalRow?.total ?? 0);
  const rows = await db
    .select({ book: books, author: { id: users.id, username: users.username, nickname: users.nickname, avatar: users.avatar } })
    .from(books)
    .innerJoin(users, eq(users.id, books.authorId))
    .where(listed)
    .orderBy(...(sort === "hot" ? [desc(books.hotScore), desc(books.id)] : [desc(books.updatedAt), desc(books.id)]))
    .limit(booksPerPage)
    .offset((page - 1) * booksPerPage);
  const ids = rows.map((row) => row.book.id);
  const latest = ids.length === 0 ? new Map<number, ChapterListItem>() : await latestChapters(db, ids);
  return {
    books: rows.map((row) => {
      const last = latest.get(row.book.id);
      return presentBookSummary(row.book, row.author, last?.number ?? 0, last ?? null);
    }),
    page,
    pageCount: Math.max(1, Math.ceil(total / booksPerPage)),
    total,
  };
}

/** Each book's last chapter (its number is also the chapter count: numbers have no gaps). */
async function latestChapters(db: Executor, bookIds: number[]): Promise<Map<number, ChapterListItem>> {
  const lastNumbers = db
    .select({ bookId: bookChapters.bookId, number: max(bookChapters.number).as("last_number") })
    .from(bookChapters)
    .where(inArray(bookChapters.bookId, bookIds))
    .groupBy(bookChapters.bookId)
    .as("last_numbers");
  const rows = await db
    .select({
      bookId: bookChapters.bookId,
      id: bookChapters.id,
      number: bookChapters.number,
      title: bookChapters.title,
      textLength: bookChapters.textLength,
      updatedAt: bookChapters.updatedAt,
    })
    .from(bookChapters)
    .innerJoin(lastNumbers, and(eq(lastNumbers.bookId, bookChapters.bookId), eq(lastNumbers.number, bookChapters.number)));
  return new Map(rows.map(({ bookId, ...chapter }) => [bookId, { ...chapter, updatedAt: chapter.updatedAt.toISOString() }]));
}

/** Books per circle (for the circle counts). */
export async function countBooks(db: Executor, circleIds: number[]): Promise<Map<number, number>> {
  if (circleIds.length === 0) return new Map();
  const rows = await db
    .select({ circleId: books.circleId, total: count() })
    .from(books)
    .where(and(inArray(books.circleId, circleIds), isNull(books.hiddenAt)))
    .groupBy(books.circleId);
  return new Map(rows.map((row) => [row.circleId, Number(row.total)]));
}

/** Every book of the given circles (the sitemap), newest change first. */
export async function listBooksForSitemap(
  db: Executor,
  circleIds: number[],
): Promise<{ id: number; circleId: number; updatedAt: Date; chapterIds: number[] }[]> {
  if (circleIds.length === 0) return [];
  const rows = await db
    .select({ id: books.id, circleId: books.circleId, updatedAt: books.updatedAt })
    .from(books)
    .where(and(inArray(books.circleId, circleIds), isNull(books.hiddenAt)))
    .orderBy(desc(books.updatedAt))
    .limit(10_000);
  if (rows.length === 0) return [];
  const chapters = await db
    .select({ id: bookChapters.id, bookId: bookChapters.bookId })
    .from(bookChapters)
    .where(
      and(
        inArray(
          bookChapters.bookId,
          rows.map((row) => row.id),
        ),
        isNull(bookChapters.hiddenAt),
      ),
    )
    .orderBy(asc(bookChapters.number));
  const byBook = new Map<number, number[]>();
  for (const chapter of chapters) byBook.set(chapter.bookId, [...(byBook.get(chapter.bookId) ?? []), chapter.id]);
  return rows.map((row) => ({ ...row, chapterIds: byBook.get(row.id) ?? [] }));
}
