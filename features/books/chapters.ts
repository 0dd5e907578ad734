import { and, asc, eq, max, sql } from "drizzle-orm";
import type { Executor } from "../../server/db/client.ts";
import { bookChapters, books } from "../../server/db/schema/index.ts";
import { AppError } from "../../common/app-error.ts";
import { authorize } from "../../common/policy.ts";
import type { Locale } from "../../common/locale.ts";
import { inTransaction, type ServiceOptions, type Transaction } from "../../server/lib/transactions.ts";
import type { Viewer } from "../accounts/viewer.ts";
import { renderMarkdown } from "../content/render.server.ts";
import type { RenderedContent, TocItem } from "../content/schema.ts";
import { can } from "./policy.ts";
import { bookTags, listChapters, loadBook, type ChapterListItem } from "./service.ts";
import type { CreateChapterInput, UpdateChapterInput } from "./schema.ts";
import { emit } from "../events/bus.ts";
import { deleteSubjectDependents } from "../subjects/registry.ts";
import { assertNotHidden } from "../reports/visibility.ts";

export interface ChapterView {
  id: number;
  bookId: number;
  number: number;
  title: string;
  markdown: string;
  html: string;
  toc: TocItem[];
  textLength: number;
  readingMinutes: number;
  createdAt: string;
  updatedAt: string;
}

export type ChapterRow = typeof bookChapters.$inferSelect;

function presentChapter(row: ChapterRow): ChapterView {
  return {
    id: row.id,
    bookId: row.bookId,
    number: row.number,
    title: row.title,
    markdown: row.markdown,
    html: row.html,
    toc: row.toc as TocItem[],
    textLength: row.textLength,
    readingMinutes: row.readingMinutes,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** Checks the viewer may edit the book before any rendering work is spent (checked again in the transaction). */
async function editableBook(db: Executor, actor: Viewer, bookId: number) {
  const loaded = await loadBook(db, actor, bookId);
  authorize(actor, can(actor, "edit", loaded.resource));
  return loaded;
}

function rendered(content: RenderedContent) {
  return { html: content.html, toc: content.toc, textLength: content.textLength, readingMinutes: content.readingMinutes };
}

/** The book was touched: "last updated" moves and every page showing it is dropped from the cache. */
async function touchBook(tx: Transaction, book: { id: number; circleId: number }): Promise<void> {
  await tx.db.update(books).set({ updatedAt: new Date() }).where(eq(books.id, book.id));
  tx.invalidate(...bookTags(book));
}

/**
 * Numbers the book's chapters 1, 2, 3… in the given order. Every number goes negative first, so the
 * unique (book, number) key never sees two chapters on one number midway.
 */
async function renumber(tx: Transaction, bookId: number, orderedIds: number[]): Promise<void> {
  if (orderedIds.length === 0) return;
  await tx.db
    .update(bookChapters)
    .set({ number: sql`-${bookChapters.number}` })
    .where(eq(bookChapters.bookId, bookId));
  const values = sql.join(
    orderedIds.map((id, index) => sql`(${id}::integer, ${index + 1}::integer)`),
    sql`, `,
  );
  await tx.db.execute(
    sql`update ${bookChapters} set "number" = ordered.number from (values ${values}) as ordered(id, number) where ${bookChapters.id} = ordered.id and ${bookChapters.bookId} = ${bookId}`,
  );
}

/**
 * Appends a chapter to a book that is still being written (a completed book takes no new chapters
 * until its author resumes updating it). The Markdown is rendered before the transaction opens.
 */
export async function addChapter(
  options: ServiceOptions,
  actor: Viewer,
  bookId: number,
  input: CreateChapterInput,
  locale?: Locale,
): Promise<ChapterView> {
  const first = await editableBook(options.tx?.db ?? options.db, actor, bookId);
  if (first.row.state === "completed") throw new AppError("book_completed");
  const content = await renderMarkdown(input.content, { locale });
  return inTransaction(options, async (tx) => {
    const { row: book, resource } = await loadBook(tx.db, actor, bookId, { lock: true });
    authorize(actor, can(actor, "edit", resource));
    if (book.state === "completed") throw new AppError("book_completed");
    const [last] = await tx.db
      .select({ number: max(bookChapters.number) })
      .from(bookChapters)
      .where(eq(bookChapters.bookId, bookId));
    const [row] = await tx.db
      .insert(bookChapters)
      .values({ bookId, number: (last?.number ?? 0) + 1, title: input.title, markdown: input.content, ...rendered(content) })
      .returning();
    await emit(tx, {
      actorId: actor.id,
      verb: "book.chapter_added",
      subjectId: bookId,
      data: { chapterId: row!.id, number: row!.number, title: input.title },
    });
    await touchBook(tx, book);
    return presentChapter(row!);
  });
}

async function findChapter(db: Executor, bookId: number, chapterId: number): Promise<ChapterRow> {
  const [row] = await db
    .select()
    .from(bookChapters)
    .where(and(eq(bookChapters.id, chapterId), eq(bookChapters.bookId, bookId)));
  if (!row) throw new AppError("not_found");
  return row;
}

async function orderedChapterIds(db: Executor, bookId: number): Promise<number[]> {
  const rows = await db
    .select({ id: bookChapters.id })
    .from(bookChapters)
    .where(eq(bookChapters.bookId, bookId))
    .orderBy(asc(bookChapters.number));
  return rows.map((row) => row.id);
}

/**
 * Changes a chapter's title and/or text, and/or moves it to another number (the chapters between
 * shift by one). A number beyond the last chapter is the field's 400.
 */
export async function updateChapter(
  options: ServiceOptions,
  actor: Viewer,
  bookId: number,
  chapterId: number,
  input: UpdateChapterInput,
  locale?: Locale,
): Promise<ChapterView> {
  await editableBook(options.tx?.db ?? options.db, actor, bookId);
  const content = input.content === undefined ? undefined : await renderMarkdown(input.content, { locale });
  return inTransaction(options, async (tx) => {
    const { row: book, resource } = await loadBook(tx.db, actor, bookId, { lock: true });
    authorize(actor, can(actor, "edit", resource));
    const chapter = await findChapter(tx.db, bookId, chapterId);
    const changed: string[] = [];
    const texts: Partial<typeof bookChapters.$inferInsert> = {};
    if (input.title !== undefined && input.title !== chapter.title) {
      texts.title = input.title;
      changed.push("title");
    }
    if (input.content !== undefined && content && input.content !== chapter.markdown) {
      Object.assign(texts, { markdown: input.content, ...rendered(content) });
      changed.push("content");
    }
    if (input.number !== undefined && input.number !== chapter.number) {
      const order = await orderedChapterIds(tx.db, bookId);
      if (input.number > order.length)
        throw new AppError("validation_failed", { fields: { number: "books:validation.number_range" }, params: { max: order.length } });
      const rest = order.filter((id) => id !== chapterId);
      rest.splice(input.number - 1, 0, chapterId);
      await renumber(tx, bookId, rest);
      changed.push("number");
    }
    if (changed.length === 0) return presentChapter(chapter);
    if (Object.keys(texts).length > 0) {
      await tx.db
        .update(bookChapters)
        .set({ ...texts, updatedAt: new Date() })
        .where(eq(bookChapters.id, chapterId));
    }
    await emit(tx, {
      actorId: actor.id,
      verb: "book.chapter_updated",
      subjectId: bookId,
      data: { chapterId, changed, from: chapter.number, to: input.number ?? chapter.number },
    });
    await touchBook(tx, book);
    return presentChapter(await findChapter(tx.db, bookId, chapterId));
  });
}

/** Deletes a chapter for good; the chapters after it move up one number. */
export async function deleteChapter(options: ServiceOptions, actor: Viewer, bookId: number, chapterId: number): Promise<void> {
  await inTransaction(options, async (tx) => {
    const { row: book, resource } = await loadBook(tx.db, actor, bookId, { lock: true });
    authorize(actor, can(actor, "edit", resource));
    await removeChapter(tx, book, await findChapter(tx.db, bookId, chapterId), actor.id);
  });
}

/** The deletion itself: `deleteChapter` after its checks, and moderation decisions (the registry's `remove`). */
export async function removeChapter(
  tx: Transaction,
  book: { id: number; circleId: number },
  chapter: Pick<ChapterRow, "id" | "number" | "title">,
  actorId: number,
): Promise<void> {
  await deleteSubjectDependents(tx, "chapter", [chapter.id]);
  await tx.db.delete(bookChapters).where(eq(bookChapters.id, chapter.id));
  await renumber(tx, book.id, await orderedChapterIds(tx.db, book.id));
  await emit(tx, {
    actorId,
    verb: "book.chapter_deleted",
    subjectId: book.id,
    data: { chapterId: chapter.id, number: chapter.number, title: chapter.title },
  });
  await touchBook(tx, book);
}

export interface ChapterPage {
  chapter: ChapterView;
  chapters: ChapterListItem[];
  previous: ChapterListItem | null;
  next: ChapterListItem | null;
}

/** A chapter with its neighbours and the book's chapter list, for a viewer who may read the book. */
export async function getChapter(db: Executor, viewer: Viewer | null, bookId: number, chapterId: number): Promise<ChapterPage> {
  const { row: book } = await loadBook(db, viewer, bookId);
  const row = await findChapter(db, bookId, chapterId);
  await assertNotHidden(db, viewer, { hiddenAt: row.hiddenAt, authorId: book.authorId, circleId: book.circleId });
  const chapter = presentChapter(row);
  const chapters = await listChapters(db, bookId, { includeHidden: viewer?.id === book.authorId });
  const index = chapters.findIndex((item) => item.id === chapterId);
  return { chapter, chapters, previous: chapters[index - 1] ?? null, next: chapters[index + 1] ?? null };
}
