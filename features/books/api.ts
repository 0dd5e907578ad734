import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { idSchema } from "../../common/id.ts";
import { jsonRoute } from "../../server/lib/operation.ts";
import { bookAnswer, bookListAnswer, chapterPageAnswer } from "./answers.ts";
import { snakeKeys } from "../circles/presenter.ts";
import { requireCircle } from "../circles/access.server.ts";
import { canCreateBook } from "./policy.ts";
import { bookListQuerySchema } from "./schema.ts";
import { getBook, listCircleBooks } from "./service.ts";
import { getChapter } from "./chapters.ts";
import { bookPath } from "./presenter.ts";
import { documentBodyLimit } from "../content/schema.ts";
import {
  addChapterOperation,
  createBookOperation,
  deleteBookOperation,
  deleteChapterOperation,
  editBookOperation,
  editChapterOperation,
} from "./operations.ts";

const circleParams = z.object({ cid: idSchema });
const bookParams = z.object({ id: idSchema });
const chapterParams = z.object({ id: idSchema, chapter_id: idSchema });

/** A transparent 1×1 GIF: the view counter's answer, so an <img> on a (cached) page counts without JavaScript. */

/**
 * The books API. Every write asks the books policy on the server (in the services); a book in a
 * circle the viewer may not see answers 404 whether or not it exists; visitors get 401 on writes.
 * Responses about a book carry the viewer's allowed actions (`can`).
 */
export async function booksApi(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ["books"];
  api.get(
    "/api/circles/:cid/books/",
    {
      schema: {
        tags,
        summary: "A circle's books, most recently updated first, 12 a page",
        params: circleParams,
        querystring: bookListQuerySchema,
        response: { 200: bookListAnswer },
      },
    },
    async (request, reply) => {
      const viewer = await request.viewer();
      const access = await requireCircle(app.db, viewer, request.params.cid, "read_content");
      reply.header("cache-control", "private, no-store");
      return snakeKeys({
        ...(await listCircleBooks(app.db, request.params.cid, request.query.page)),
        can: { create: canCreateBook(viewer, access) },
      }) as z.infer<typeof bookListAnswer>;
    },
  );

  jsonRoute(app, "POST", "/api/circles/:cid/books/", createBookOperation, {
    status: 201,
    tags,
    summary: "Start a book in a circle (state `updating`, no chapters yet)",
    cache: "none",
  });

  api.get(
    "/api/books/:id/",
    {
      schema: {
        tags,
        summary: "A book: texts, cover, categories, author, state, views, numbered chapters",
        params: bookParams,
        response: { 200: bookAnswer },
      },
    },
    async (request, reply) => {
      reply.header("cache-control", "private, no-store");
      const book = await getBook(app.db, await request.viewer(), request.params.id);
      return snakeKeys({ ...book, url: bookPath(book) }) as z.infer<typeof bookAnswer>;
    },
  );

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

  api.get(
    "/api/books/:id/chapters/:chapter_id/",
    {
      schema: {
        tags,
        summary: "A chapter with its rendered HTML, neighbours and the book's chapter list",
        params: chapterParams,
        response: { 200: chapterPageAnswer },
      },
    },
    async (request, reply) => {
      reply.header("cache-control", "private, no-store");
      return snakeKeys(await getChapter(app.db, await request.viewer(), request.params.id, request.params.chapter_id)) as z.infer<
        typeof chapterPageAnswer
      >;
    },
  );

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
