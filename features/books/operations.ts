import { z } from "zod";
import { idSchema } from "../../common/id.ts";
import { defineOperation, noContent } from "../../server/lib/operation.ts";
import type { Executor } from "../../server/db/client.ts";
import type { Viewer } from "../accounts/viewer.ts";
import { snakeKeys } from "../circles/presenter.ts";
import { bookAnswer, chapterAnswer, createdBookAnswer, createdChapterAnswer } from "./answers.ts";
import { createBookSchema, createChapterSchema, updateBookSchema, updateChapterSchema } from "./schema.ts";
import { createBook, deleteBook, getBook, loadBook, updateBook, type BookView } from "./service.ts";
import { addChapter, deleteChapter, updateChapter, type ChapterView } from "./chapters.ts";
import { bookPath, chapterPath } from "./presenter.ts";

/*
 * The book and chapter writes, one definition each, served by the API (features/books/api.ts) and
 * the write pages' forms (app/routes/book-write.tsx, app/routes/chapter-write.tsx). The services
 * ask the books policy; the presenters are pure (what they show is read in `run`).
 */

const bookParams = z.object({ id: idSchema });
const chapterParams = z.object({ id: idSchema, chapter_id: idSchema });

const presentBook = (book: BookView) => snakeKeys({ ...book, url: bookPath(book) }) as z.infer<typeof bookAnswer>;

/** The book as the API answers it after a write, read in the use case (the presenter makes no query). */
const bookAfterWrite = (db: Executor, viewer: Viewer, id: number): Promise<BookView> => getBook(db, viewer, id);

/** Starts a book in a circle (state `updating`, no chapters yet). */
export const createBookOperation = defineOperation({
  name: "createBook",
  input: { params: z.object({ cid: idSchema }), body: createBookSchema },
  viewer: "signed-in",
  run: (services, viewer, { params, body }) => createBook({ db: services.db }, viewer, params.cid, body),
  present: (book: { id: number; circleId: number }) => ({ id: book.id, url: bookPath(book) }),
  response: createdBookAnswer,
  failures: ["not_found", "forbidden", "validation_failed"],
});

/** Changes a book's name, description, cover, categories or state (its author or the circle's moderators). */
export const editBookOperation = defineOperation({
  name: "editBook",
  input: { params: bookParams, body: updateBookSchema },
  viewer: "signed-in",
  run: async (services, viewer, { params, body }) => {
    await updateBook({ db: services.db }, viewer, params.id, body);
    return bookAfterWrite(services.db, viewer, params.id);
  },
  present: presentBook,
  response: bookAnswer,
  failures: ["not_found", "forbidden", "validation_failed"],
});

/** Deletes a book and its chapters for good. */
export const deleteBookOperation = defineOperation({
  name: "deleteBook",
  input: { params: bookParams },
  viewer: "signed-in",
  run: (services, viewer, { params }) => deleteBook({ db: services.db }, viewer, params.id),
  present: () => null,
  response: noContent,
  failures: ["not_found", "forbidden"],
});

/** Appends a chapter (Markdown) to a book that is updating; a completed book answers 409 `book_completed`. */
export const addChapterOperation = defineOperation({
  name: "addChapter",
  input: { params: bookParams, body: createChapterSchema },
  viewer: "signed-in",
  run: async (services, viewer, { params, body }) => {
    const chapter = await addChapter({ db: services.db }, viewer, params.id, body, services.locale);
    const { row } = await loadBook(services.db, viewer, params.id);
    return { chapter, book: { id: row.id, circleId: row.circleId } };
  },
  present: ({ chapter, book }: { chapter: ChapterView; book: { id: number; circleId: number } }) => ({
    id: chapter.id,
    number: chapter.number,
    url: chapterPath(book, chapter.id),
  }),
  response: createdChapterAnswer,
  failures: ["not_found", "forbidden", "validation_failed", "book_completed", "content_too_complex", "rendering_busy"],
});

/** Changes a chapter's title or text, or moves it to another `number` (the others shift). */
export const editChapterOperation = defineOperation({
  name: "editChapter",
  input: { params: chapterParams, body: updateChapterSchema },
  viewer: "signed-in",
  run: (services, viewer, { params, body }) =>
    updateChapter({ db: services.db }, viewer, params.id, params.chapter_id, body, services.locale),
  present: (chapter: ChapterView) => snakeKeys(chapter) as z.infer<typeof chapterAnswer>,
  response: chapterAnswer,
  failures: ["not_found", "forbidden", "validation_failed", "content_too_complex", "rendering_busy"],
});

/** Deletes a chapter for good; the later chapters move up one number. */
export const deleteChapterOperation = defineOperation({
  name: "deleteChapter",
  input: { params: chapterParams },
  viewer: "signed-in",
  run: (services, viewer, { params }) => deleteChapter({ db: services.db }, viewer, params.id, params.chapter_id),
  present: () => null,
  response: noContent,
  failures: ["not_found", "forbidden"],
});
