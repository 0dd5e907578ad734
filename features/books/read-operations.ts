import { z } from "zod";
import { idSchema } from "../../common/id.ts";
import { defineOperation } from "../../server/lib/operation.ts";
import { bookAnswer, bookListAnswer, chapterPageAnswer } from "./answers.ts";
import { snakeKeys } from "../circles/presenter.ts";
import { requireCircle } from "../circles/access.server.ts";
import { canCreateBook } from "./policy.ts";
import { bookListQuerySchema } from "./schema.ts";
import { getBook, listCircleBooks } from "./service.ts";
import { getChapter } from "./chapters.ts";
import { bookPath } from "./presenter.ts";

/* Reading books: a circle's list, a book, a chapter (the API; the pages read the same services). A book in a circle the viewer may not see is a 404. */

export const listCircleBooksOperation = defineOperation({
  name: "listCircleBooks",
  input: { params: z.object({ cid: idSchema }), query: bookListQuerySchema },
  viewer: "optional",
  run: async (services, viewer, { params, query }) => {
    const access = await requireCircle(services.db, viewer, params.cid, "read_content");
    return { ...(await listCircleBooks(services.db, params.cid, query.page)), can: { create: canCreateBook(viewer, access) } };
  },
  present: (list) => snakeKeys(list) as z.infer<typeof bookListAnswer>,
  response: bookListAnswer,
  failures: ["not_found", "forbidden"],
});

export const getBookOperation = defineOperation({
  name: "getBook",
  input: { params: z.object({ id: idSchema }) },
  viewer: "optional",
  run: (services, viewer, { params }) => getBook(services.db, viewer, params.id),
  present: (book) => snakeKeys({ ...book, url: bookPath(book) }) as z.infer<typeof bookAnswer>,
  response: bookAnswer,
  failures: ["not_found", "forbidden"],
});

export const getChapterOperation = defineOperation({
  name: "getChapter",
  input: { params: z.object({ id: idSchema, chapter_id: idSchema }) },
  viewer: "optional",
  run: (services, viewer, { params }) => getChapter(services.db, viewer, params.id, params.chapter_id),
  present: (chapter) => snakeKeys(chapter) as z.infer<typeof chapterPageAnswer>,
  response: chapterPageAnswer,
  failures: ["not_found", "forbidden"],
});
