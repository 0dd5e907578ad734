import type { FastifyInstance } from "fastify";
import { jsonRoute } from "../../server/lib/operation.ts";
import { rankingOperation, searchOperation, suggestOperation } from "./operations.ts";

export async function searchApi(app: FastifyInstance): Promise<void> {
  jsonRoute(app, "GET", "/api/search/", searchOperation, {
    tags: ["search"],
    summary: "Search writings, books, chapters, questions, answers, entries, circles and users the viewer may read",
  });
  jsonRoute(app, "GET", "/api/search/suggest/", suggestOperation, {
    tags: ["search"],
    summary: "Up to 8 titles, entry names, circles and users matching what is typed (pinyin and initials too)",
  });
  jsonRoute(app, "GET", "/api/ranking/", rankingOperation, {
    tags: ["search"],
    summary: "A ranking list (hot articles, questions, entries, books or top creators) of the day, week or month, site-wide or in a circle",
  });
}
