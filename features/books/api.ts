import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { idSchema } from "../../common/id.ts";
import { jsonRoute } from "../../server/lib/operation.ts";
import { loadBook } from "./service.ts";
import { documentBodyLimit } from "../content/schema.ts";
import {
  addChapterOperation,
  createBookOperation,
  deleteBookOperation,
  deleteChapterOperation,
  editBookOperation,
  editChapterOperation,
} from "./operations.ts";
import { recordBookView, visitorKey } from "./views.ts";
import { getBookOperation, getChapterOperation, listCircleBooksOperation } from "./read-operations.ts";

const bookParams = z.object({ id: idSchema });

/** A transparent 1×1 GIF: the view counter's answer, so an <img> on a (cached) page counts without JavaScript. */
const pixel = Buffer.from("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7", "base64");

/**
 * The books API. Every write asks the books policy on the server (in the services); a book in a
 * circle the viewer may not see answers 404 whether or not it exists; visitors get 401 on writes.
 * Responses about a book carry the viewer's allowed actions (`can`).
 */
export async function booksApi(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
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

  /**
   * The view counter: the book's page embeds it as an image, so visitors served a cached page count
   * too, with or without JavaScript. Once per visitor per day; readers only (else 404/401/403).
   */
  api.get(
    "/api/books/:id/view.gif",
    {
      // An image, not JSON: left out of the OpenAPI document like the writings' view beacon.
      schema: {
        hide: true,
        tags,
        summary: "Count a view of the book (once per visitor per Asia/Shanghai day); answers a 1×1 GIF",
        params: bookParams,
      },
    },
    async (request, reply) => {
      const viewer = await request.viewer();
      await loadBook(app.db, viewer, request.params.id);
      await recordBookView(
        { db: app.db },
        request.params.id,
        visitorKey(viewer, { ip: request.ip, userAgent: request.headers["user-agent"] ?? "" }),
        app.now(),
      );
      return reply.header("content-type", "image/gif").header("cache-control", "private, no-store").send(pixel);
    },
  );
}
