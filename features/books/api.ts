import type { FastifyInstance } from "fastify";
import { jsonRoute } from "../../server/lib/operation.ts";
import { documentBodyLimit } from "../content/schema.ts";
import {
  addChapterOperation,
  createBookOperation,
  deleteBookOperation,
  deleteChapterOperation,
  editBookOperation,
  editChapterOperation,
} from "./operations.ts";
import { getBookOperation, getChapterOperation, listCircleBooksOperation } from "./read-operations.ts";

/**
 * The books API. Every write asks the books policy on the server (in the services); a book in a
 * circle the viewer may not see answers 404 whether or not it exists; visitors get 401 on writes.
 * Responses about a book carry the viewer's allowed actions (`can`).
 */
export async function booksApi(app: FastifyInstance): Promise<void> {
  const tags = ["books"];
  jsonRoute(app, "GET", "/api/circles/:cid/books/", listCircleBooksOperation, {
    tags,
    summary: "A circle's books, most recently updated first, 12 a page",
  });

  jsonRoute(app, "POST", "/api/circles/:cid/books/", createBookOperation, {
    status: 201,
    tags,
    summary: "Start a book in a circle (state `updating`, no chapters yet)",
    cache: "none",
  });

  jsonRoute(app, "GET", "/api/books/:id/", getBookOperation, {
    tags,
    summary: "A book: texts, cover, categories, author, state, views, numbered chapters",
  });

  jsonRoute(app, "PATCH", "/api/books/:id/", editBookOperation, {
    tags,
    summary:
      "Change a book's name, description, cover, categories or state (`updating` | `completed`): its author or the circle's moderators",
  });
  jsonRoute(app, "DELETE", "/api/books/:id/", deleteBookOperation, {
    status: 204,
    tags,
    summary: "Delete a book and its chapters for good",
    cache: "none",
  });
  jsonRoute(app, "POST", "/api/books/:id/chapters/", addChapterOperation, {
    status: 201,
    tags,
    summary: "Append a chapter (Markdown) to a book that is updating",
    bodyLimit: documentBodyLimit,
    cache: "none",
  });

  jsonRoute(app, "GET", "/api/books/:id/chapters/:chapter_id/", getChapterOperation, {
    tags,
    summary: "A chapter with its rendered HTML, neighbours and the book's chapter list",
  });

  jsonRoute(app, "PATCH", "/api/books/:id/chapters/:chapter_id/", editChapterOperation, {
    tags,
    summary: "Change a chapter's title or text, or move it to another `number` (the others shift)",
    bodyLimit: documentBodyLimit,
  });
  jsonRoute(app, "DELETE", "/api/books/:id/chapters/:chapter_id/", deleteChapterOperation, {
    status: 204,
    tags,
    summary: "Delete a chapter for good; the later chapters move up one number",
    cache: "none",
  });
}
